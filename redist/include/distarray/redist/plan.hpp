#pragma once
// Plan: a redistribution from one layout to another, built once and executed
// many times (ADI and FFT loops repeat the same transposes), like an FFTW plan.
//
//   distarray::Plan<double, 2> plan(from, to, MPI_COMM_WORLD);   // collective
//   plan.execute(a, b);                                           // collective, repeatable
//   auto request = plan.start(a, b); ... request.wait();         // non-blocking (request.hpp)
//   plan.execute(std::span(sources), std::span(destinations));  // k arrays, one exchange per step
//
// SourceOrder and DestOrder are the storage orders of the two arrays' local
// blocks (Kokkos::LayoutRight or LayoutLeft); a column-major destination of
// (block,*) -> (*,block) receives the local transpose inside the unpack.
// What the plan does is decided by its logic (plan_logic.hpp: strategy,
// steps, copy tables; no element type, a copyable value); the plan holds
// the intermediate blocks between steps, in MemorySpace, and runs its steps
// (buffers and engine per exchange) in an executor (detail/exec/executor.hpp),
// which owns the communicators they run on (detail/exec/plan_communicators.hpp).

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#endif

#include <distarray/core/dist_array.hpp>
#include <distarray/redist/detail/exec/executor.hpp>
#include <distarray/redist/detail/exec/plan_communicators.hpp>
#include <distarray/redist/plan_logic.hpp>
#include <distarray/redist/plan_report.hpp>
#include <distarray/redist/request.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#endif

namespace distarray {

template <class T, int D, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space,
          class SourceOrder = Kokkos::LayoutRight, class DestOrder = Kokkos::LayoutRight>
class Plan {
  static_assert(D >= 1 && D <= 4, "plans are compiled for 1- to 4-dimensional arrays");

 public:
  using source_type = DistArray<T, D, MemorySpace, SourceOrder>;
  using destination_type = DistArray<T, D, MemorySpace, DestOrder>;
  using execution_space = typename MemorySpace::execution_space;

  /// Collective over `comm`.  Throws on every rank what choose_strategy
  /// (strategy.hpp) throws, or AllocationError for buffers too large.
  Plan(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options = {})
      : Plan(MPI_Wtime(), from, to, comm, options) {}
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
  /// A moved-from plan may only be destroyed or assigned to.
  Plan(Plan&&) noexcept = default;
  Plan& operator=(Plan&& other) noexcept {
    if (this != &other) {
      executor_.abandon();  // before the blocks its steps use are freed
      logic_ = std::move(other.logic_);
      executor_ = std::move(other.executor_);
      intermediates_ = std::move(other.intermediates_);
      intermediate_arrays_ = other.intermediate_arrays_;
    }
    return *this;
  }
  /// An execution in flight is completed first.
  ~Plan() { executor_.abandon(); }

  /// Moves `in` (layout from()) into `out` (layout to()).  Collective:
  /// start(in, out).wait().
  void execute(const source_type& in, destination_type& out) { start(in, out).wait(); }
  /// Moves in[j] into out[j] for k arrays in one exchange per step.
  void execute(std::span<const source_type> in, std::span<destination_type> out) { start(in, out).wait(); }

  /// Starts moving `in` into `out` and returns at once; the returned request
  /// completes it (request.hpp: until then `in` must not be written nor `out`
  /// read).  Collective; UsageError while an execution of this plan is in flight.
  /// Packs and unpacks run on `exec` (an instance of the arrays' execution
  /// space; the caller orders its own work on `in` and `out` with it).
  Request start(const source_type& in, destination_type& out,
                const execution_space& exec = execution_space()) {
    return start({&in, 1}, {&out, 1}, exec);
  }
  /// The same for k arrays of the plan's layouts, moved together: one
  /// exchange per step, one message per peer holding all k pieces (the
  /// first such execution of a step builds its peer graph; intermediate
  /// blocks grow to k; the encoded engine, whose headers each place one
  /// array's piece, moves the k arrays one after another).  UsageError on
  /// every rank when the counts differ (here or between ranks);
  /// ShapeMismatch on every rank when any rank passes a wrong array.
  Request start(std::span<const source_type> in, std::span<destination_type> out,
                const execution_space& exec = execution_space()) {
    // Every refusal is agreed before anything starts: a rank outside the
    // grids has no steps (its execution completes inside start) and must
    // refuse exactly when the others do.
    executor_.agree_to_start(in.size(), "the number of arrays to move", [&] {
      if (executor_.in_flight())
        throw UsageError(
            "Plan::start: this plan's previous execution is in flight; wait() for its request first");
      if (in.size() != out.size())
        throw UsageError("Plan::start: " + std::to_string(in.size()) + " source arrays but " +
                         std::to_string(out.size()) + " destination arrays");
      for (std::size_t j = 0; j < in.size(); ++j) {
        logic_.check_layouts(in[j].layout(), out[j].layout());
        executor_.comms().check_arrays(in[j].comm(), out[j].comm());
      }
    });
    if (in.empty()) return Request();
    std::vector<const void*> sources;
    std::vector<std::vector<void*>> targets(std::max<std::size_t>(executor_.step_count(), 1));
    for (std::size_t j = 0; j < in.size(); ++j) {
      sources.push_back(in[j].local().data());
      targets.back().push_back(out[j].local().data());
    }
    const bool grow = in.size() > intermediate_arrays_;  // the same on every rank: allocation is collective
    for (std::size_t s = 0; s < intermediates_.size(); ++s) {
      const index_t elements = logic_.steps()[s].output_elements;
      if (grow)
        intermediates_[s] =
            allocate_intermediates(executor_.comms().of(logic_.steps()[s]), logic_.steps()[s], in.size());
      for (std::size_t j = 0; j < in.size(); ++j)
        targets[s].push_back(intermediates_[s].data() + elements * index_t(j));
    }
    intermediate_arrays_ = std::max(intermediate_arrays_, in.size());
    return executor_.start(std::move(sources), std::move(targets), exec, std::nullopt, [&] {
      for (std::size_t j = 0; j < in.size(); ++j) Kokkos::deep_copy(exec, out[j].local(), in[j].local());
      exec.fence();
    });
  }

  /// Every candidate with its phases, messages, bytes and modelled cost, and the choice.
  std::string explain() const { return logic_.strategy().explain(); }
  const std::vector<Candidate<D>>& candidates() const { return logic_.strategy().candidates; }
  const Candidate<D>& chosen() const { return logic_.strategy().candidate(); }

  const Layout<D>& from() const { return logic_.from(); }
  const Layout<D>& to() const { return logic_.to(); }
  const PlanOptions& options() const { return logic_.options(); }
  /// The communicator to create destination arrays on: the caller's ranks,
  /// renumbered when the plan chose a Kalns-Ni processor mapping.
  MPI_Comm destination_comm() const { return executor_.comms().destination(); }
  /// Plan shape and accumulated time per activity of this rank.
  const PlanReport& report() const { return executor_.report(); }

 private:
  static constexpr StorageOrder source_order = storage_order_of<SourceOrder>();
  static constexpr StorageOrder destination_order = storage_order_of<DestOrder>();

  /// `begun`: when construction began (the report's plan_seconds).
  Plan(double begun, const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options)
      : logic_(from, to, comm, options, sizeof(T), std::pair(source_order, destination_order)) {
    detail::PlanCommunicators comms(comm, logic_);
    const auto& steps = logic_.steps();
    std::vector<detail::TypedStep<T, MemorySpace>> built;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      built.push_back(detail::make_step<T, MemorySpace>(comms.of(steps[s]), steps[s].tag, steps[s].send,
                                                        steps[s].recv, options, steps[s].encoded,
                                                        {logic_.wisdom(), steps[s].engine_key}));
      if (s + 1 < steps.size())
        intermediates_.push_back(allocate_intermediates(comms.of(steps[s]), steps[s], 1));  // not the last's
    }
    logic_.release_tables();  // the steps' packers hold them now
    PlanReport report;
    report.destination_ranks = chosen().destination_ranks;
    report.method = chosen().name;
    report.schedule = logic_.schedule_names();
    report.cost_model = logic_.strategy().model.source;
    report.plan_seconds = MPI_Wtime() - begun;
    executor_ = detail::Executor<T, MemorySpace>(std::move(comms), std::move(built), std::move(report),
                                                 std::string(to_string(options.exchange)));
  }

  /// The intermediate blocks of k arrays a step writes (agreed over the
  /// step's communicator: no rank alone fails to allocate).
  static Kokkos::View<T*, MemorySpace> allocate_intermediates(MPI_Comm comm, const StepLogic& step,
                                                              std::size_t k) {
    return detail::agreed(comm, [&] {
      const index_t elements = step.output_elements * index_t(k);
      checked_bytes(elements, sizeof(T));
      return detail::make_view<Kokkos::View<T*, MemorySpace>>("distarray::intermediate", Index<1>{elements});
    });
  }

  PlanLogic<D> logic_;
  detail::Executor<T, MemorySpace> executor_;                 // the steps and the execution in flight
  std::vector<Kokkos::View<T*, MemorySpace>> intermediates_;  // intermediate local blocks between steps
  std::size_t intermediate_arrays_ = 1;                       // arrays the intermediate blocks hold
};

/// A new array of layout `to` holding `in`'s elements (builds a one-off plan).
template <class T, int D, class MemorySpace, class Order>
DistArray<T, D, MemorySpace, Order> redistribute(const DistArray<T, D, MemorySpace, Order>& in,
                                                 const Layout<D>& to, const PlanOptions& options = {}) {
  Plan<T, D, MemorySpace, Order, Order> plan(in.layout(), to, in.comm(), options);
  DistArray<T, D, MemorySpace, Order> out(to, plan.destination_comm());  // renumbered ranks, if chosen
  plan.execute(in, out);
  return out;
}

}  // namespace distarray
