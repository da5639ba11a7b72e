// Thakur's asynchronous method: receives posted first, then the sends;
// messages unpacked while others are still arriving (in test() as in
// wait()).  Both sides go in waves (message_waves.hpp), so that an
// execution's launches, staging copies and fences are the same few however
// many peers it has: sends are staged and posted a wave at a time, each
// wave's copy out running while the one before is on its way, and received
// messages are unpacked a wave at a time, as each wave completes.

#include "arrivals.hpp"
#include "exchange.hpp"

namespace distarray::detail {

namespace {

std::vector<index_t> counts(const std::vector<CopyTable::Message>& messages) {
  std::vector<index_t> c;
  for (const auto& m : messages) c.push_back(m.count);
  return c;
}

class PointToPointExchange final : public Exchange {
 private:  // (first: its return type is deduced)
  /// Unpacks a wave of received messages; `t` is now, before and after.
  auto unpacker(const Blocks& blocks, PlanReport& report, double& t) {
    const auto unpack = [this, out = blocks.out[0]](std::size_t first, std::size_t last) {
      messages_.unpack_messages(first, last, out);
    };
    return timed_unpack(unpack, report, t);
  }

 public:
  PointToPointExchange(const StepShape& shape, ExchangeBuffers& buffers, MessageBuffers& messages)
      : shape_(shape), buffers_(buffers), messages_(messages), send_waves_(counts(shape.send)) {
    arrivals_.set_waves(MessageWaves(counts(shape.recv)));
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    arrivals_.reset();  // the vectors keep their capacity: no allocation after the first execution
    for (std::size_t i = 0; i < shape_.recv.size(); ++i) {
      post_message(shape_, false, buffers_.recv_bytes(), shape_.recv[i], shape_.payload_tag,
                   arrivals_.requests());
      arrivals_.posted(i);
    }
    messages_.pack_unstaged(blocks.in[0]);
    t = add_seconds(report.pack_seconds, t);
    sends_.clear();
    send_waves_.reset();
    for (std::size_t i = 0; i < shape_.send.size(); ++i) {
      send_waves_.arrived(i);
      const auto [first, last] = send_waves_.take();  // a wave ends at message i
      if (first == last) continue;
      messages_.stage_messages(first, last);  // while the wave before is on its way
      t = add_seconds(report.pack_seconds, t);
      for (std::size_t m = first; m < last; ++m)
        post_message(shape_, true, buffers_.send_bytes(), shape_.send[m], shape_.payload_tag, sends_);
      t = add_seconds(report.exchange_seconds, t);
    }
  }

  bool test(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    int sent = 0;
    if (arrivals_.test(unpacker(blocks, report, t)))
      DISTARRAY_MPI_CHECK(MPI_Testall(int(sends_.size()), sends_.data(), &sent, MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
    return sent != 0;
  }

  void wait(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    arrivals_.wait(unpacker(blocks, report, t));
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
  }

  std::string name() const override { return "p2p"; }

 private:
  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  MessageBuffers& messages_;
  Arrivals arrivals_;
  MessageWaves send_waves_;
  std::vector<MPI_Request> sends_;
};

}  // namespace

std::unique_ptr<Exchange> make_point_to_point_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                       MessageBuffers& messages) {
  return std::make_unique<PointToPointExchange>(shape, buffers, messages);
}

}  // namespace distarray::detail
