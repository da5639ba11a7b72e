// The collective engines: one non-blocking collective per execution, posted
// by start over the ranks that share data (PeerExchange: the whole
// communicator, or a graph of the sharing ranks), whose one request test and
// wait complete before the engine unpacks.
// - alltoallv: packed buffers through one MPI_I(neighbor_)alltoallv;
// - datatype: one MPI_I(neighbor_)alltoallw, each side with derived types
//   moved in place, the others packed (host memory, or a GPU-aware MPI);
// - batched: k arrays at once, whatever the step's engine for one, packed so
//   that each message holds the k pieces one after another, then one
//   MPI_I(neighbor_)alltoallv of k times the bytes.

#include "exchange.hpp"

namespace distarray::detail {

namespace {

/// What the three share: the one request of the collective start posted.
class CollectiveExchange : public Exchange {
 public:
  bool test(const Blocks& blocks, PlanReport& report) final {
    const bool done = complete_requests({&request_, 1}, false, report.exchange_seconds);
    if (done) unpack(blocks, report);
    return done;
  }
  void wait(const Blocks& blocks, PlanReport& report) final {
    complete_requests({&request_, 1}, true, report.exchange_seconds);
    unpack(blocks, report);
  }

 protected:
  /// What follows the collective: the received buffers into the destinations.
  virtual void unpack(const Blocks& blocks, PlanReport& report) = 0;

  MPI_Request request_ = MPI_REQUEST_NULL;
};

class AlltoallvExchange final : public CollectiveExchange {
 public:
  AlltoallvExchange(ExchangeBuffers& buffers, std::shared_ptr<const PeerExchange> peers)
      : buffers_(buffers), peers_(std::move(peers)) {}

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack(blocks.in[0]);
    t = add_seconds(report.pack_seconds, t);
    peers_->alltoallv(buffers_.send_bytes(), buffers_.recv_bytes(), request_);
    add_seconds(report.exchange_seconds, t);
  }
  std::string name() const override { return peers_->sparse() ? "alltoallv(neighbors)" : "alltoallv"; }

 private:
  void unpack(const Blocks& blocks, PlanReport& report) override {
    const double t = MPI_Wtime();
    buffers_.unpack(blocks.out[0]);
    add_seconds(report.unpack_seconds, t);
  }

  ExchangeBuffers& buffers_;
  std::shared_ptr<const PeerExchange> peers_;
};

class DatatypeExchange final : public CollectiveExchange {
 public:
  DatatypeExchange(ExchangeBuffers& buffers, std::shared_ptr<PeerExchange> peers,
                   std::optional<MessageTypes> send_types, std::optional<MessageTypes> recv_types)
      : buffers_(buffers),
        peers_(std::move(peers)),
        send_types_(std::move(send_types)),
        recv_types_(std::move(recv_types)) {
    peers_->use_types(typed_send() ? &*send_types_ : nullptr, typed_recv() ? &*recv_types_ : nullptr);
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    if (!typed_send()) {
      buffers_.pack(blocks.in[0]);
      t = add_seconds(report.pack_seconds, t);
    }
    peers_->alltoallw(typed_send() ? blocks.in[0] : buffers_.send_bytes(),
                      typed_recv() ? blocks.out[0] : buffers_.recv_bytes(), request_);
    add_seconds(report.exchange_seconds, t);
  }
  std::string name() const override {
    const std::string graph = peers_->sparse() ? "neighbors" : "";
    const std::string side = typed_send() && typed_recv() ? ""
                             : typed_send()               ? "send side"
                             : typed_recv()               ? "receive side"
                                                          : "packed";
    const std::string detail = side + (!side.empty() && !graph.empty() ? ", " : "") + graph;
    return detail.empty() ? "datatype" : "datatype(" + detail + ")";
  }

 private:
  void unpack(const Blocks& blocks, PlanReport& report) override {
    if (typed_recv()) return;
    const double t = MPI_Wtime();
    buffers_.unpack(blocks.out[0]);
    add_seconds(report.unpack_seconds, t);
  }
  bool typed_send() const { return send_types_.has_value(); }
  bool typed_recv() const { return recv_types_.has_value(); }

  ExchangeBuffers& buffers_;
  std::shared_ptr<PeerExchange> peers_;
  std::optional<MessageTypes> send_types_, recv_types_;  // the sides moved in place
};

class BatchedExchange final : public CollectiveExchange {
 public:
  BatchedExchange(BatchBuffers& buffers, std::shared_ptr<PeerExchange> peers)
      : buffers_(buffers), peers_(std::move(peers)) {}

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack(blocks.in);
    t = add_seconds(report.pack_seconds, t);
    peers_->batched_alltoallv(int(blocks.in.size()), buffers_.send_bytes(), buffers_.recv_bytes(), request_);
    add_seconds(report.exchange_seconds, t);
  }
  std::string name() const override { return "batched alltoallv"; }

 private:
  void unpack(const Blocks& blocks, PlanReport& report) override {
    const double t = MPI_Wtime();
    buffers_.unpack(blocks.out);
    add_seconds(report.unpack_seconds, t);
  }

  BatchBuffers& buffers_;
  std::shared_ptr<PeerExchange> peers_;
};

}  // namespace

std::unique_ptr<Exchange> make_alltoallv_exchange(const StepShape&, ExchangeBuffers& buffers,
                                                  std::shared_ptr<const PeerExchange> peers) {
  return std::make_unique<AlltoallvExchange>(buffers, std::move(peers));
}

std::unique_ptr<Exchange> make_datatype_exchange(const StepShape&, ExchangeBuffers& buffers,
                                                 std::shared_ptr<PeerExchange> peers,
                                                 std::optional<MessageTypes> send_types,
                                                 std::optional<MessageTypes> recv_types) {
  return std::make_unique<DatatypeExchange>(buffers, std::move(peers), std::move(send_types),
                                            std::move(recv_types));
}

std::unique_ptr<Exchange> make_batched_exchange(BatchBuffers& buffers, std::shared_ptr<PeerExchange> peers) {
  return std::make_unique<BatchedExchange>(buffers, std::move(peers));
}

}  // namespace distarray::detail
