#pragma once
// PlanLogic: everything a plan decides, with no element type or memory space
// (as heFFTe's logic_plan3d): the strategy (strategy.hpp) and, per exchange
// step of the chosen chain, which communicator it runs on, the tag, this
// rank's send and receive copy tables and, where messages are encoded, their
// headers.  It is a copyable value that names no engine and owns no MPI
// object: the communicators are the executor's (detail/exec/plan_communicators.hpp).
// Plan<T, ...> turns the steps into typed buffers and engines.  Compiled in
// redist/src/plan/plan_logic.cpp for D = 1..4.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#endif

#include <distarray/core/layout.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/redist/detail/tables/copy_table.hpp>
#include <distarray/redist/detail/tables/encoded_messages.hpp>
#include <distarray/redist/strategy.hpp>
#include <distarray/redist/wisdom.hpp>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN_LOGIC
#endif

#include <mpi.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace distarray {

/// One exchange of a plan, seen from this rank.
struct StepLogic {
  int line = -1;  ///< its communicator: the plan's (-1), or the source grid's line along this dimension
  int tag = 0;    ///< distinct among the steps sharing a communicator
  detail::CopyTable send, recv;     ///< recv stays empty when messages are encoded (receivers decode headers)
  detail::EncodedMessages encoded;  ///< Hsu-Chung headers, one per send message, and their decoder (or none)
  index_t output_elements = 0;      ///< elements of this rank's block that the step writes
  std::string engine_key;           ///< its automatic engine's key in the wisdom (empty: not kept)
};

template <int D>
class PlanLogic {
 public:
  /// Collective over `comm`: the strategy (choose_strategy, with its errors)
  /// and this rank's steps (AllocationError on every rank when one rank's
  /// tables fail).  `orders`: the storage orders {source, destination} of the
  /// arrays' local blocks (intermediate blocks are row-major).
  PlanLogic(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options,
            std::size_t element_bytes, std::pair<StorageOrder, StorageOrder> orders);

  const Layout<D>& from() const { return from_; }
  const Layout<D>& to() const { return to_; }
  const PlanOptions& options() const { return options_; }
  const Strategy<D>& strategy() const { return strategy_; }
  const std::vector<StepLogic>& steps() const { return steps_; }
  /// The wisdom the options name (wisdom.hpp), or null.
  const std::shared_ptr<Wisdom>& wisdom() const { return wisdom_; }
  /// Frees the copy tables (the typed plan keeps them in its packers).
  void release_tables();
  /// Throws ShapeMismatch when this rank's source or destination array has
  /// another layout than this plan's.  Not collective.
  void check_layouts(const Layout<D>& source, const Layout<D>& destination) const;
  /// The 1-D schedule method of each dimension, e.g. "hsu-chung,aspen".
  std::string schedule_names() const;

 private:
  std::vector<StepLogic> build_steps(int rank, int ranks, std::pair<StorageOrder, StorageOrder> orders,
                                     std::size_t element_bytes) const;

  Layout<D> from_, to_;
  PlanOptions options_;
  std::shared_ptr<Wisdom> wisdom_;  // before strategy_: the cost model may come from it
  Strategy<D> strategy_;
  std::vector<StepLogic> steps_;
};

}  // namespace distarray
