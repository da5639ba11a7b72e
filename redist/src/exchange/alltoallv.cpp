// The alltoallv engine: packed buffers through one MPI_Ialltoallv, or
// MPI_Ineighbor_alltoallv where PeerExchange finds the sharing ranks a
// sparse graph.

#include "exchange.hpp"

namespace distarray::detail {

namespace {

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

}  // namespace

std::unique_ptr<Exchange> make_alltoallv_exchange(const StepShape&, ExchangeBuffers& buffers,
                                                  std::shared_ptr<const PeerExchange> peers) {
  return std::make_unique<AlltoallvExchange>(buffers, std::move(peers));
}

}  // namespace distarray::detail
