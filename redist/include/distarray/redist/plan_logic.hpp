#pragma once
// PlanLogic: everything a plan decides, with no element type or memory space
// (as heFFTe's logic_plan3d): the strategy (strategy.hpp) and, per exchange
// step of the chosen chain, the communicator, the tag, this rank's send and
// receive copy tables and, where messages are encoded, their headers.
// Plan<T, ...> turns the steps into typed buffers and engines.  Compiled in
// redist/src/plan/plan_logic.cpp for D = 1..4.
//
// It names no engine, but it is not a copyable value: it owns the plan's
// communicators (duplicates of the caller's, so that its messages never
// meet the caller's; the grid's sub-communicators), and a copy would either
// share them — two plans whose messages, on the same tags, could match each
// other's — or duplicate them, a collective call hidden in a copy.  The
// strategy it holds (strategy.hpp) is the copyable value.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#endif

#include <distarray/core/proc_grid.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/redist/detail/copy_table.hpp>
#include <distarray/redist/detail/encoded_messages.hpp>
#include <distarray/redist/strategy.hpp>
#include <distarray/redist/wisdom.hpp>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#endif

#include <mpi.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace distarray {

/// One exchange of a plan, seen from this rank.
struct StepLogic {
  MPI_Comm comm = MPI_COMM_NULL;    ///< owned by the PlanLogic
  int tag = 0;                      ///< distinct among the steps sharing `comm`
  detail::CopyTable send, recv;     ///< recv stays empty when messages are encoded (receivers decode headers)
  detail::EncodedMessages encoded;  ///< Hsu-Chung headers, one per send message, and their decoder (or none)
  index_t output_elements = 0;      ///< elements of this rank's block that the step writes
  std::string engine_key;           ///< its automatic engine's key in the wisdom (empty: not kept)
};

template <int D>
class PlanLogic {
 public:
  /// Collective over `comm`: the strategy (choose_strategy, with its errors)
  /// and this rank's steps.  `orders`: the storage orders {source,
  /// destination} of the arrays' local blocks (intermediate blocks are row-major).
  PlanLogic(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options,
            std::size_t element_bytes, std::pair<StorageOrder, StorageOrder> orders);
  PlanLogic(const PlanLogic&) = delete;
  PlanLogic& operator=(const PlanLogic&) = delete;
  ~PlanLogic();

  const Layout<D>& from() const { return from_; }
  const Layout<D>& to() const { return to_; }
  const PlanOptions& options() const { return options_; }
  const Strategy<D>& strategy() const { return strategy_; }
  const std::vector<StepLogic>& steps() const { return steps_; }
  /// The wisdom the options name (wisdom.hpp), or null.
  const std::shared_ptr<Wisdom>& wisdom() const { return wisdom_; }
  /// Frees the copy tables (the typed plan keeps them in its packers).
  void release_tables();
  /// The plan's duplicate of the caller's communicator (MPI_ERRORS_RETURN).
  MPI_Comm comm() const { return comm_; }
  /// The communicator to create destination arrays on: comm(), renumbered
  /// when the strategy chose a Kalns-Ni processor mapping.
  MPI_Comm destination_comm() const { return destination_comm_ != MPI_COMM_NULL ? destination_comm_ : comm_; }
  /// Throws ShapeMismatch when this rank's source or destination array
  /// (given by layout and communicator) is not this plan's.  Not collective.
  void check_arrays(const Layout<D>& source, MPI_Comm source_comm, const Layout<D>& destination,
                    MPI_Comm destination_comm) const;
  /// Collective, before an execution of `arrays` arrays starts anything:
  /// runs this rank's `checks`, then every rank throws the same error (the
  /// lowest refusing rank's) when any rank's checks threw, and a UsageError
  /// when ranks pass different numbers of arrays.  The agreement has its own
  /// communicator: a step of the execution in flight may still have
  /// collectives pending on comm() on some ranks and not on others.
  void agree_to_start(std::size_t arrays, const std::function<void()>& checks) const;
  /// The 1-D schedule method of each dimension, e.g. "hsu-chung,aspen".
  std::string schedule_names() const;

 private:
  void build_steps(std::pair<StorageOrder, StorageOrder> orders, std::size_t element_bytes);
  void free_communicators();

  Layout<D> from_, to_;
  PlanOptions options_;
  std::shared_ptr<Wisdom> wisdom_;  // before strategy_: the cost model may come from it
  Strategy<D> strategy_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm control_comm_ = MPI_COMM_NULL;      // agree_to_start's
  MPI_Comm destination_comm_ = MPI_COMM_NULL;  // renumbered destinations only
  std::unique_ptr<ProcGrid<D>> grid_;          // indirect: the grid's sub-communicators
  std::vector<StepLogic> steps_;
};

}  // namespace distarray
