#pragma once
// The strategies a plan can choose from (Kaushik et al. Sec. 4; Thakur et al.
// Sec. 6), each a chain of layouts whose consecutive pairs are phases:
//   direct      from -> to
//   indirect    one dimension at a time, in every order of the changed dimensions
//   multiphase  through intermediate block sizes of one dimension: divisor
//               chains for kr->r and r->kr (the multiplicative partitions of
//               k), gcd / lcm routes for general s->t
// A candidate's modelled cost is the sum over its phases of the slowest
// rank's max_messages*ts + max_bytes*te, from the exact per-peer counts.
// Compiled in redist/src/plan/candidates.cpp and candidate_costs.cpp for D = 1..4.

#include <distarray/core/layout.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/redist/cost_model.hpp>
#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace distarray {

template <int D>
struct Candidate {
  struct Phase {
    index_t max_messages = 0;  ///< slowest rank, sent or received, self excluded
    index_t max_bytes = 0;     ///< slowest rank, sent or received, self excluded
    double cost = 0;
  };
  std::string name;
  RedistMethod method = RedistMethod::direct;  ///< indirect: each phase on one dimension's sub-communicators
  std::vector<Layout<D>> chain;                ///< from, intermediates..., to
  std::vector<Phase> phases;
  double cost = 0;
  /// Kalns-Ni processor mapping: the rank holding each destination grid
  /// coordinate (row-major); empty for the layout's own numbering.
  std::vector<int> destination_ranks = {};
  /// Why the plan's schedule method cannot build this candidate; empty when it can.
  std::string inapplicable = {};
};

/// Why `method` cannot build the phases of `chain` (the first phase and
/// dimension it fails on), or nothing.  A pure function of the layouts, so
/// every rank reaches the same answer without communicating.
template <int D>
std::optional<std::string> chain_inapplicable(const std::vector<Layout<D>>& chain, ScheduleMethod method);

/// Direct, every indirect order and every multiphase chain from `from` to `to`, costs not yet filled.
template <int D>
std::vector<Candidate<D>> enumerate_candidates(const Layout<D>& from, const Layout<D>& to);

/// Kalns and Ni's candidate: the direct method with the destination grid's
/// ranks renumbered to keep the most data in place; nothing when the best
/// mapping found is the layout's own numbering (collective).
template <int D>
std::optional<Candidate<D>> renumbered_candidate(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm);

/// Fills every candidate's phases and cost (collective over `comm`: the
/// slowest rank of each phase is found with one reduction).
/// Candidates the method cannot build are marked (Candidate::inapplicable)
/// and cost infinity; the same on every rank.
template <int D>
void evaluate_candidates(std::vector<Candidate<D>>& candidates, MPI_Comm comm, const CostModel& model,
                         std::size_t element_bytes, ScheduleMethod method);

/// The cheapest candidate the schedule method can build; ties go to the
/// earlier (fewer phases) one.  ScheduleError (the first candidate's reason)
/// when the method can build none.
template <int D>
std::size_t cheapest(const std::vector<Candidate<D>>& candidates);

/// Every candidate with its phases, messages, bytes and modelled cost; the
/// chosen one marked with '*'.
template <int D>
std::string explain_candidates(const std::vector<Candidate<D>>& candidates, std::size_t chosen,
                               const CostModel& model);

namespace detail {

/// The rank of destination coordinate c: the layout's, or the renumbering's.
template <int D>
int destination_rank(const Layout<D>& to, const std::vector<int>& renumbered, const Coord<D>& c) {
  if (renumbered.empty()) return to.grid().rank_of(c);
  return renumbered[std::size_t(to.grid().rank_of(c) - to.grid().first_rank)];
}

/// This rank's destination coordinate: the layout's, or under the renumbering.
template <int D>
std::optional<Coord<D>> destination_coord(const Layout<D>& to, const std::vector<int>& renumbered, int me) {
  if (renumbered.empty()) return to.grid().coord_of(me);
  const auto it = std::find(renumbered.begin(), renumbered.end(), me);
  if (it == renumbered.end()) return std::nullopt;
  return to.grid().coord_of(to.grid().first_rank + int(it - renumbered.begin()));
}

/// The storage orders of a phase's source and destination blocks: the
/// arrays' own at the ends of the chain, row-major for intermediate blocks.
inline std::pair<StorageOrder, StorageOrder> phase_orders(bool first, bool last,
                                                          std::pair<StorageOrder, StorageOrder> arrays) {
  return {first ? arrays.first : StorageOrder::row_major, last ? arrays.second : StorageOrder::row_major};
}

/// This rank's (messages, bytes) of one phase a -> b: the larger of sent and
/// received, self excluded; `renumbered` as in Candidate::destination_ranks.
template <int D>
std::pair<index_t, index_t> phase_load(const Layout<D>& a, const Layout<D>& b, int me,
                                       std::size_t element_bytes, const std::vector<int>& renumbered = {});

/// Kalns and Ni's processor mapping: assign destination coordinates to the
/// ranks of the destination grid so that the data each rank keeps is large —
/// greedily, largest kept amount first (collective: one allgather of this
/// rank's amounts per destination coordinate).
template <int D>
std::vector<int> keep_most_mapping(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm);

/// Block-size chains from s to t: the multiplicative partitions of the ratio
/// when one divides the other (at most three phases, at most eight chains,
/// fewer phases first), else via gcd and lcm.
std::vector<std::vector<index_t>> block_size_chains(index_t s, index_t t);

}  // namespace detail
}  // namespace distarray
