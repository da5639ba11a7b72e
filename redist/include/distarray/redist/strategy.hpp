#pragma once
// The strategy of a redistribution: every candidate (candidates.hpp) costed
// by the cost model and the one the options ask for.  It is the decision half
// of a plan's logic (plan_logic.hpp), all that `explain` needs: no copy
// table is built.  Compiled in redist/src/plan/strategy.cpp for D = 1..4.

#include <distarray/core/layout.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/redist/candidates.hpp>
#include <distarray/redist/cost_model.hpp>
#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace distarray {

template <int D>
struct Strategy {
  CostModel model;
  std::vector<Candidate<D>> candidates;
  std::size_t chosen = 0;

  const Candidate<D>& candidate() const { return candidates[chosen]; }
  /// Every candidate with its phases, messages, bytes and modelled cost, and the choice.
  std::string explain() const { return explain_candidates(candidates, chosen, model); }
};

/// Checks the layouts against `comm` and the options, costs every candidate
/// for elements of `element_bytes` and picks the one the options ask for: the
/// cheapest (method auto), the cheapest of a method, or the one named.
/// Collective over `comm`; every rank reaches the same strategy or throws
/// the same error: ShapeMismatch (different global shapes), LayoutError (a
/// grid larger than the communicator, an indirect plan between different
/// grids, no multiphase route), ScheduleError (the forced schedule method
/// cannot build the candidate), UsageError (no candidate of the given name).
/// The cost model comes from `wisdom` when it has one (wisdom.hpp).
template <int D>
Strategy<D> choose_strategy(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm,
                            const PlanOptions& options, std::size_t element_bytes, Wisdom* wisdom = nullptr);

/// What the exchange of each phase of the chosen candidate will run on and
/// why, from the layouts alone: each side's mean contiguous run over the
/// ranks (shortest to longest), whether it is a local transpose (the source
/// side, where the blocks' storage orders, `orders` {source, destination},
/// differ; intermediate blocks are row-major), and the engine rule of
/// choose_exchange applied to them, for arrays in host memory or, where
/// `host_memory` is false, in a device's (MPI reading it or not, as the
/// plan's buffers would find).  Collective over `comm`; no table is
/// built, so it is a close estimate of what the plan's tables show (the
/// message a rank keeps counts here).
template <int D>
std::string explain_exchange(const Strategy<D>& strategy, std::pair<StorageOrder, StorageOrder> orders,
                             const PlanOptions& options, std::size_t element_bytes, MPI_Comm comm,
                             bool host_memory = true);

}  // namespace distarray
