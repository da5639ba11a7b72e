// The collective engines: packed buffers through MPI_I(neighbor_)alltoallv,
// or derived datatypes through MPI_I(neighbor_)alltoallw (PeerExchange picks
// the neighbour form when the sharing ranks are a sparse graph), and the
// batched form, k arrays through one MPI_I(neighbor_)alltoallv.
// All are non-blocking collectives: start posts, test and wait complete one
// request and then unpack.

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>

#include <optional>

namespace distarray::detail {

double add_seconds(double& total, double start) {
  const double now = MPI_Wtime();
  total += now - start;
  return now;
}

namespace {

/// A collective engine's completion: its one request, then its unpack.
class CollectiveExchange : public Exchange {
 public:
  bool test(void* out, PlanReport& report) final {
    const double t = MPI_Wtime();
    int done = 0;
    DISTARRAY_MPI_CHECK(MPI_Test(&request_, &done, MPI_STATUS_IGNORE));
    add_seconds(report.exchange_seconds, t);
    if (done) unpack(out, report);
    return done != 0;
  }
  void wait(void* out, PlanReport& report) final {
    const double t = MPI_Wtime();
    DISTARRAY_MPI_CHECK(MPI_Wait(&request_, MPI_STATUS_IGNORE));
    add_seconds(report.exchange_seconds, t);
    unpack(out, report);
  }

 protected:
  /// What follows the collective: the received buffers into `out`.
  virtual void unpack(void* out, PlanReport& report) = 0;

  MPI_Request request_ = MPI_REQUEST_NULL;
};

class AlltoallvExchange final : public CollectiveExchange {
 public:
  AlltoallvExchange(ExchangeBuffers& buffers, std::shared_ptr<const PeerExchange> peers)
      : buffers_(buffers), peers_(std::move(peers)) {}

  void start(const void* in, void*, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack(in);
    t = add_seconds(report.pack_seconds, t);
    peers_->alltoallv(buffers_.send_bytes(), buffers_.recv_bytes(), request_);
    add_seconds(report.exchange_seconds, t);
  }
  std::string name() const override { return peers_->sparse() ? "alltoallv(neighbors)" : "alltoallv"; }

 private:
  void unpack(void* out, PlanReport& report) override {
    const double t = MPI_Wtime();
    buffers_.unpack(out, true);  // the message to oneself straight from the send buffer
    add_seconds(report.unpack_seconds, t);
  }

  ExchangeBuffers& buffers_;
  std::shared_ptr<const PeerExchange> peers_;
};

// MPI moves every message, the one to oneself included.  (Host memory, or a
// GPU-aware MPI.)
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

  void start(const void* in, void* out, PlanReport& report) override {
    double t = MPI_Wtime();
    if (!typed_send()) {
      buffers_.pack(in);
      t = add_seconds(report.pack_seconds, t);
    }
    peers_->alltoallw(typed_send() ? in : buffers_.send_bytes(), typed_recv() ? out : buffers_.recv_bytes(),
                      request_);
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
  void unpack(void* out, PlanReport& report) override {
    if (typed_recv()) return;
    const double t = MPI_Wtime();
    buffers_.unpack(out, false);
    add_seconds(report.unpack_seconds, t);
  }
  bool typed_send() const { return send_types_.has_value(); }
  bool typed_recv() const { return recv_types_.has_value(); }

  ExchangeBuffers& buffers_;
  std::shared_ptr<PeerExchange> peers_;
  std::optional<MessageTypes> send_types_, recv_types_;  // the sides moved in place
};

// k arrays at once: `in` and `out` are arrays of k local blocks, packed so
// that each message holds the k pieces one after another, then one
// collective of k times the bytes.
class BatchedExchange final : public CollectiveExchange {
 public:
  BatchedExchange(ExchangeBuffers& buffers, std::shared_ptr<PeerExchange> peers, int k)
      : buffers_(buffers), peers_(std::move(peers)), k_(k) {}

  void start(const void* in, void*, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack_batch(static_cast<const void* const*>(in), k_);
    t = add_seconds(report.pack_seconds, t);
    peers_->batched_alltoallv(k_, buffers_.batch_bytes(true), buffers_.batch_bytes(false), request_);
    add_seconds(report.exchange_seconds, t);
  }
  std::string name() const override { return "batched alltoallv"; }

 private:
  void unpack(void* out, PlanReport& report) override {
    const double t = MPI_Wtime();
    buffers_.unpack_batch(static_cast<void* const*>(out), k_);
    add_seconds(report.unpack_seconds, t);
  }

  ExchangeBuffers& buffers_;
  std::shared_ptr<PeerExchange> peers_;
  int k_;
};

}  // namespace

std::unique_ptr<Exchange> make_batched_exchange(ExchangeBuffers& buffers, std::shared_ptr<PeerExchange> peers,
                                                int k) {
  return std::make_unique<BatchedExchange>(buffers, std::move(peers), k);
}

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

}  // namespace distarray::detail
