#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/step.hpp is internal: include <distarray/redist.hpp>"
#endif
// Step: one exchange of a plan — its buffers (the typed half, StepBuffers)
// and the engine the choice made (compiled once, redist/src/exchange/).
// make_step builds both for an element type and memory space.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/batch_step_buffers.hpp>
#include <distarray/redist/detail/exec/decode_step_buffers.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/detail/exec/placed_step_buffers.hpp>
#include <distarray/redist/detail/exec/step_buffers.hpp>
#include <distarray/redist/plan_report.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace distarray::detail {

class Exchange;
class PeerExchange;
struct StepShape;

/// What the front end hands the first step's start of its agreement to start.
struct StartAgreement {
  /// The agreement, for the engine to reduce and conclude
  /// (Step::carries_agreement; k = 1), or null.
  Agreement* carried = nullptr;
  /// Where the front end reduced it itself, though it would have handed it
  /// to an engine that carries it: the seconds that took (0 otherwise).
  /// The automatic engine charges them to the engines that do not carry it.
  double front_seconds = 0;
};

class Step {
 public:
  /// Collective over `comm` (not owned; every rank of it builds and executes
  /// the step).  Steps sharing a communicator need different `tag`s.
  /// `send`, `recv` and `encoded` leave out the message to oneself, which
  /// has `own_elements` (own_message.hpp: `buffers` copies it).
  Step(MPI_Comm comm, int tag, const CopyTable& send, const CopyTable& recv, std::size_t element_bytes,
       const PlanOptions& options, const ExchangeChoice& choice, std::unique_ptr<StepHalf> buffers,
       EncodedMessages encoded, index_t own_elements, EngineMemo memo = {});
  Step(const Step&) = delete;
  Step& operator=(const Step&) = delete;
  ~Step();

  /// Moves the local block `in` into `out`; adds times and kernel launches to the report.
  void execute(const void* in, void* out, PlanReport& report);
  /// The same for k = in.size() blocks at once (in[j] into out[j]; the
  /// pointer arrays must live until the execution completes), non-blocking: start, then
  /// test() until true or wait().  One exchange: the step's engine for one
  /// block, one message per peer holding all k pieces for more (on the
  /// encoded engine, whose headers each place one array's piece, the k
  /// arrays one after another).
  /// `agreement`: the front end's agreement to start (StartAgreement).
  void start(std::span<const void* const> in, std::span<void* const> out, PlanReport& report,
             StartAgreement agreement = {});
  /// Before a batched start of k > 1 arrays: builds what it needs (the
  /// buffers, the peer graph).  Collective over the step's communicator.
  void prepare_batch(int k);
  bool test(PlanReport& report);
  void wait(PlanReport& report);
  /// Adds this step's messages and bytes to the report.
  void describe(PlanReport& report) const;
  /// The ranks of the step's communicator it exchanges with, self excluded.
  std::vector<int> peers() const;
  /// The engine's name ("auto(measuring)" until the automatic choice is made).
  std::string engine() const;
  bool settled() const;
  /// The engine's next start can carry the front end's agreement
  /// (exchange.hpp: Exchange::carries_agreement); then agree_only is the
  /// agreement alone, on a rank that does not start.
  bool carries_agreement() const;
  void agree_only(Agreement& agreement);
  /// Whether the step's communicator has `comm`'s ranks, in its order.
  bool runs_on(MPI_Comm comm) const;

 private:
  void add_counters(PlanReport& report) const;
  /// The message to oneself, in_ into out_.
  void copy_own_message(PlanReport& report);

  std::unique_ptr<StepShape> shape_;
  index_t own_elements_;
  bool array_by_array_;  // encoded and shared: batches go array by array (Step::prepare_batch)
  std::unique_ptr<StepHalf> buffers_;
  std::unique_ptr<Exchange> exchange_;
  std::shared_ptr<PeerExchange> peers_;  // the batched exchange's (built by the first prepare_batch)
  std::unique_ptr<Exchange> batched_;    // for batched_k_ arrays
  int batched_k_ = 0;
  Exchange* active_ = nullptr;       // the exchange of the execution in progress
  std::span<const void* const> in_;  // its sources
  std::span<void* const> out_;       // and destinations
  bool own_copied_ = false;          // its message to oneself (the engine may copy it: Blocks::copy_own)
};

/// A step and its typed buffers (which the step owns).
template <class T, class Space>
struct TypedStep {
  std::unique_ptr<Step> step;
  StepBuffers<T, Space>* buffers;
};

/// Where the shared engine's segments live for kernels of `Space`'s
/// execution space (exchange_choice.hpp).
template <class Space>
constexpr SegmentMemory segment_memory() {
  using Exec = typename Space::execution_space;
  if constexpr (Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible) return SegmentMemory::host;
#if defined(KOKKOS_ENABLE_CUDA)
  else if constexpr (std::is_same_v<Exec, Kokkos::Cuda>)
    return SegmentMemory::device;
#elif defined(KOKKOS_ENABLE_HIP)
  else if constexpr (std::is_same_v<Exec, Kokkos::HIP>)
    return SegmentMemory::device;
#endif
  else
    return SegmentMemory::none;
}

/// A step moving elements of T in `Space`, whose buffers reach MPI as
/// `options.staging` says; `memo`: where its automatic engine is remembered.
template <class T, class Space>
TypedStep<T, Space> make_step(MPI_Comm comm, int tag, const CopyTable& send, const CopyTable& recv,
                              const PlanOptions& options, EncodedMessages encoded = {},
                              EngineMemo memo = {}) {
  constexpr bool host_space = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;
  const bool staged = staged_buffers(options.staging, host_space, comm);
  // The message to oneself leaves the tables (agreed: a rank's tables may be refused).
  OwnSplit split = agreed(comm, [&] { return split_own_message(send, recv, encoded, rank_of(comm)); });
  const ExchangeChoice choice =
      choose_exchange(comm, split.send, split.recv, sizeof(T), options, mpi_reads_arrays(host_space, staged),
                      memo, segment_memory<Space>());
  // No rank alone may fail to allocate before the step's collectives.
  auto buffers = agreed(comm, [&] {
    return std::make_unique<StepBuffers<T, Space>>(split.send, split.recv, split.own, choice, staged);
  });
  StepBuffers<T, Space>* const typed = buffers.get();
  return {std::make_unique<Step>(comm, tag, split.send, split.recv, sizeof(T), options, choice,
                                 std::move(buffers), std::move(split.encoded), split.own.elements(),
                                 std::move(memo)),
          typed};
}

// The steps of these element types in the default memory space are compiled
// once, into the library (redist/src/exchange/compiled_step.cpp.in, one file
// per type): their kernels are most of what a plan costs to compile, and
// every program, test and binding that builds plans paid it again (on a GPU
// backend, device code in each).  Other types and spaces compile where used.
#define DISTARRAY_FOR_EACH_COMPILED_STEP_TYPE(X) \
  X(float) X(double) X(std::complex<float>) X(std::complex<double>) X(std::int32_t) X(std::int64_t)
#define DISTARRAY_COMPILED_STEP(T)                                   \
  template TypedStep<T, Kokkos::DefaultExecutionSpace::memory_space> \
  make_step<T, Kokkos::DefaultExecutionSpace::memory_space>(         \
      MPI_Comm, int, const CopyTable&, const CopyTable&, const PlanOptions&, EncodedMessages, EngineMemo);
#define DISTARRAY_DECLARE_COMPILED_STEP(T) extern DISTARRAY_COMPILED_STEP(T)
DISTARRAY_FOR_EACH_COMPILED_STEP_TYPE(DISTARRAY_DECLARE_COMPILED_STEP)
#undef DISTARRAY_DECLARE_COMPILED_STEP

}  // namespace distarray::detail
