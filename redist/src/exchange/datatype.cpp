// The datatype engine: one MPI_I(neighbor_)alltoallw, each side with
// derived types moved in place, the others packed (host memory, or a
// GPU-aware MPI).

#include "exchange.hpp"

namespace distarray::detail {

namespace {

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

}  // namespace

std::unique_ptr<Exchange> make_datatype_exchange(const StepShape&, ExchangeBuffers& buffers,
                                                 std::shared_ptr<PeerExchange> peers,
                                                 std::optional<MessageTypes> send_types,
                                                 std::optional<MessageTypes> recv_types) {
  return std::make_unique<DatatypeExchange>(buffers, std::move(peers), std::move(send_types),
                                            std::move(recv_types));
}

}  // namespace distarray::detail
