// Thakur's asynchronous method: receives posted first, then the sends (each
// staged on its own where buffers are staged); every message unpacked as
// soon as all of its chunks have arrived (in test() as in wait()).

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>

namespace distarray::detail {

namespace {

class PointToPointExchange final : public Exchange {
 public:
  PointToPointExchange(const StepShape& shape, ExchangeBuffers& buffers) : shape_(shape), buffers_(buffers) {}

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    requests_.clear();  // the vectors keep their capacity: no allocation after the first execution
    owner_.clear();
    outstanding_.assign(shape_.recv.size(), 0);
    for (std::size_t i = 0; i < shape_.recv.size(); ++i) {
      if (shape_.recv[i].rank == shape_.rank) continue;
      const std::size_t before = requests_.size();
      post_message(shape_, false, buffers_.recv_bytes(), shape_.recv[i], shape_.payload_tag, requests_);
      outstanding_[i] = int(requests_.size() - before);
      owner_.resize(requests_.size(), i);
    }
    receives_ = requests_.size();
    completed_ = 0;
    indices_.resize(receives_);
    buffers_.pack_unstaged(blocks.in[0]);
    t = add_seconds(report.pack_seconds, t);
    // Staged buffers go out message by message: each one's copy to the host
    // runs while the one before is on its way (the step moves the copies'
    // time from packing to staging).
    for (std::size_t i = 0; i < shape_.send.size(); ++i) {
      if (shape_.send[i].rank == shape_.rank) continue;
      buffers_.stage_message(i);
      t = add_seconds(report.pack_seconds, t);
      post_message(shape_, true, buffers_.send_bytes(), shape_.send[i], shape_.payload_tag, requests_);
      t = add_seconds(report.exchange_seconds, t);
    }
    buffers_.unpack_self(blocks.out[0]);
    add_seconds(report.unpack_seconds, t);
  }

  bool test(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    for (int count = 1; completed_ < receives_ && count > 0;) {
      DISTARRAY_MPI_CHECK(
          MPI_Testsome(int(receives_), requests_.data(), &count, indices_.data(), MPI_STATUSES_IGNORE));
      for (int k = 0; k < count; ++k)
        t = complete(std::size_t(indices_[std::size_t(k)]), blocks.out[0], report, t);
    }
    int sent = 0;
    if (completed_ == receives_)
      DISTARRAY_MPI_CHECK(MPI_Testall(int(requests_.size() - receives_), requests_.data() + receives_, &sent,
                                      MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
    return sent != 0;
  }

  void wait(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    while (completed_ < receives_) {
      int index = MPI_UNDEFINED;
      DISTARRAY_MPI_CHECK(MPI_Waitany(int(receives_), requests_.data(), &index, MPI_STATUS_IGNORE));
      t = complete(std::size_t(index), blocks.out[0], report, t);
    }
    DISTARRAY_MPI_CHECK(
        MPI_Waitall(int(requests_.size() - receives_), requests_.data() + receives_, MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
  }

  std::string name() const override { return "p2p"; }

 private:
  /// Receive request `index` has completed; its message is unpacked once
  /// all of its chunks have.  Returns now.
  double complete(std::size_t index, void* out, PlanReport& report, double t) {
    ++completed_;
    const std::size_t message = owner_[index];
    if (--outstanding_[message] > 0) return t;
    t = add_seconds(report.exchange_seconds, t);
    buffers_.unpack_message(message, out);
    return add_seconds(report.unpack_seconds, t);
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::vector<MPI_Request> requests_;  // receives first, then sends
  std::vector<std::size_t> owner_;     // receive request -> receive message
  std::vector<int> outstanding_;       // receive message -> chunks not yet arrived
  std::vector<int> indices_;           // MPI_Testsome's completed receive requests
  std::size_t receives_ = 0, completed_ = 0;
};

}  // namespace

std::unique_ptr<Exchange> make_point_to_point_exchange(const StepShape& shape, ExchangeBuffers& buffers) {
  return std::make_unique<PointToPointExchange>(shape, buffers);
}

}  // namespace distarray::detail
