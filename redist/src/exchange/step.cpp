// Step: the engine factory and what a step reports.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/step.hpp>

#include <functional>
#include <string>

#include "exchange.hpp"

namespace distarray::detail {

namespace {

std::unique_ptr<Exchange> make_exchange(const StepShape& shape, const CopyTable& send, const CopyTable& recv,
                                        const ExchangeChoice& choice, StepHalf& buffers,
                                        EncodedMessages encoded, EngineMemo memo) {
  switch (choice.engine) {
    case ExchangeEngine::encoded:
      return make_encoded_exchange(shape, buffers, buffers.decoded(), std::move(encoded));
    case ExchangeEngine::p2p:
      return make_point_to_point_exchange(shape, buffers, buffers);
    case ExchangeEngine::shared:
      return make_shared_exchange(shape, send, recv, buffers, choice.device_segments);
    case ExchangeEngine::alltoallv:
    case ExchangeEngine::datatype:
    case ExchangeEngine::automatic:
      break;
  }
  auto peers = std::make_shared<PeerExchange>(shape.comm, shape.send, shape.recv, shape.element_bytes);
  if (choice.engine == ExchangeEngine::alltoallv) return make_alltoallv_exchange(shape, buffers, peers);
  const auto typed = [&] {
    // Types for the sides moved in place (agreed: they allocate).
    auto [send_types, recv_types] = agreed(shape.comm, [&] {
      std::pair<std::optional<MessageTypes>, std::optional<MessageTypes>> types;
      if (choice.send_typed) types.first.emplace(send, shape.element_bytes);
      if (choice.recv_typed) types.second.emplace(recv, shape.element_bytes);
      return types;
    });
    return make_datatype_exchange(shape, buffers, peers, std::move(send_types), std::move(recv_types));
  };
  if (choice.engine == ExchangeEngine::datatype) return typed();
  std::vector<Contender> contenders;
  contenders.push_back(
      {make_alltoallv_exchange(shape, buffers, peers), ExchangeEngine::alltoallv, true, true});
  if (choice.typed_trial)
    contenders.push_back({typed(), ExchangeEngine::datatype, !choice.send_typed, !choice.recv_typed});
  if (choice.shared_trial)  // its windows made only when measured, and kept only if it wins
    contenders.push_back({nullptr, ExchangeEngine::shared, false, false,
                          [&shape, send, recv, &buffers, device = choice.device_segments] {
                            return make_shared_exchange(shape, send, recv, buffers, device);
                          },
                          shared_windows});
  auto remember = [memo = std::move(memo), comm = shape.comm](ExchangeEngine chosen) {
    if (memo.wisdom && !memo.key.empty()) memo.wisdom->record_engine(memo.key, chosen, comm);
  };
  return make_automatic_exchange(shape, buffers, std::move(contenders), std::move(remember), choice.known);
}

}  // namespace

Step::Step(MPI_Comm comm, int tag, const CopyTable& send, const CopyTable& recv, std::size_t element_bytes,
           const PlanOptions& options, const ExchangeChoice& choice, std::unique_ptr<StepHalf> buffers,
           EncodedMessages encoded, index_t own_elements, EngineMemo memo)
    : shape_(std::make_unique<StepShape>(StepShape{comm, 0, 2 * tag, 2 * tag + 1, element_bytes,
                                                   options.max_message_bytes, send.messages, recv.messages})),
      own_elements_(own_elements),
      array_by_array_(choice.engine == ExchangeEngine::encoded || choice.engine == ExchangeEngine::shared),
      buffers_(std::move(buffers)) {
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &shape_->rank));
  exchange_ = make_exchange(*shape_, send, recv, choice, *buffers_, std::move(encoded), std::move(memo));
}

Step::~Step() = default;

void Step::execute(const void* in, void* out, PlanReport& report) {
  start({&in, 1}, {&out, 1}, report);
  wait(report);
}

void Step::start(std::span<const void* const> in, std::span<void* const> out, PlanReport& report,
                 StartAgreement agreement) {
  buffers_->counters = {};
  const std::size_t k = in.size();
  if (k > 1 && int(k) != batched_k_)
    throw Error("Step::start: a batch of " + std::to_string(k) + " is not prepared");
  active_ = k == 1 ? exchange_.get() : batched_.get();
  in_ = in;
  out_ = out;
  own_copied_ = false;
  const std::function<void()> copy_own = [this, &report] { copy_own_message(report); };  // (held in place)
  active_->start({in_, out_, agreement.carried, &copy_own, agreement.front_seconds}, report);
  // The message to oneself while the others are on their way.
  if (!own_copied_) copy_own_message(report);
}

void Step::copy_own_message(PlanReport& report) {
  const double t = MPI_Wtime();
  if (own_elements_ > 0) buffers_->copy_own(in_, out_);
  report.local_seconds += MPI_Wtime() - t;
  own_copied_ = true;
}

bool Step::test(PlanReport& report) {
  if (!active_->test({in_, out_}, report)) return false;
  add_counters(report);
  return true;
}

void Step::wait(PlanReport& report) {
  active_->wait({in_, out_}, report);
  add_counters(report);
}

void Step::prepare_batch(int k) {
  if (k == batched_k_) return;  // every rank saw the same batches: no collective needed
  // Encoded: receivers have no table to place k pieces of one message by.
  // Shared: each array straight into the receivers' windows (two passes
  // over memory; the batched alltoallv makes three).
  if (array_by_array_) {
    if (!batched_) batched_ = make_array_by_array_exchange(*exchange_);
  } else {
    BatchBuffers& batch = *agreed(shape_->comm, [&]() -> BatchBuffers* { return &buffers_->batch(k); });
    if (!peers_)
      peers_ =
          std::make_shared<PeerExchange>(shape_->comm, shape_->send, shape_->recv, shape_->element_bytes);
    batched_ = make_batched_exchange(batch, peers_);
  }
  batched_k_ = k;
}

void Step::add_counters(PlanReport& report) const {
  const ExchangeCounters& c = buffers_->counters;
  report.pack_launches += c.pack_launches;
  report.unpack_launches += c.unpack_launches;
  report.local_launches += c.own_launches;
  // The engines time staging inside packing and unpacking: moved to a stage of its own.
  report.staging_seconds += c.staging_out_seconds + c.staging_in_seconds;
  report.pack_seconds -= c.staging_out_seconds;
  report.unpack_seconds -= c.staging_in_seconds;
}

void Step::describe(PlanReport& r) const {
  const auto bytes = [this](index_t elements) { return elements * index_t(shape_->element_bytes); };
  r.bytes_local += bytes(own_elements_);
  for (const auto& m : shape_->send) {
    ++r.messages_sent;
    r.bytes_sent += bytes(m.count);
  }
  for (const auto& m : shape_->recv) {
    ++r.messages_received;
    r.bytes_received += bytes(m.count);
  }
}

std::vector<int> Step::peers() const {
  std::vector<int> v;
  for (const auto* messages : {&shape_->send, &shape_->recv})
    for (const auto& m : *messages) v.push_back(m.rank);
  return v;
}

std::string Step::engine() const { return exchange_->name(); }
bool Step::settled() const { return exchange_->settled(); }
bool Step::carries_agreement() const { return exchange_->carries_agreement(); }
void Step::agree_only(Agreement& agreement) { exchange_->agree_only(agreement); }

bool Step::runs_on(MPI_Comm comm) const {
  int result = MPI_UNEQUAL;
  DISTARRAY_MPI_CHECK(MPI_Comm_compare(comm, shape_->comm, &result));
  return result == MPI_IDENT || result == MPI_CONGRUENT;
}

}  // namespace distarray::detail
