// The batched engine: k arrays at once, whatever the step's engine for one.
// Packed so that each message holds the k pieces one after another, then
// one MPI_I(neighbor_)alltoallv of k times the bytes.

#include "exchange.hpp"

namespace distarray::detail {

namespace {

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

std::unique_ptr<Exchange> make_batched_exchange(BatchBuffers& buffers, std::shared_ptr<PeerExchange> peers) {
  return std::make_unique<BatchedExchange>(buffers, std::move(peers));
}

}  // namespace distarray::detail
