#pragma once
// The strategies a plan can choose from (Kaushik et al. Sec. 4; Thakur et al.
// Sec. 6), each a chain of layouts whose consecutive pairs are phases:
//   direct      from -> to
//   indirect    one dimension at a time, in every order of the changed dimensions
//   multiphase  through intermediate block sizes of one dimension: divisor
//               chains for kr->r and r->kr (the multiplicative partitions of
//               k), gcd / lcm routes for general s->t
// A candidate's modelled cost is the sum over its phases of the slowest
// rank's max_messages*ts + max_bytes*te, from the exact schedules.

#include <distarray/core/checked.hpp>
#include <distarray/core/collective.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/cost_model.hpp>
#include <distarray/redist/peer_counts.hpp>
#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
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
std::optional<std::string> chain_inapplicable(const std::vector<Layout<D>>& chain, ScheduleMethod method) {
  for (std::size_t i = 0; i + 1 < chain.size(); ++i)
    for (int d = 0; d < D; ++d)
      if (auto why = inapplicable(method, chain[i].dist(d), chain[i + 1].dist(d)))
        return "schedule '" + std::string(to_string(method)) + "' does not apply to dimension " +
               std::to_string(d) + " of '" + chain[i].to_string() + "' -> '" + chain[i + 1].to_string() +
               "': " + *why;
  return std::nullopt;
}

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

/// Calls f(peer coordinate, elements) for every peer of process `c` of
/// `mine` in a redistribution to `other`: the tensor product of the 1-D
/// message sizes (peer_counts.hpp; exact for every schedule method).
template <int D, class F>
void for_each_peer(const Layout<D>& mine, const Coord<D>& c, const Layout<D>& other, F&& f) {
  std::array<std::vector<std::pair<int, index_t>>, D> per_dim;
  for (int d = 0; d < D; ++d) {
    per_dim[d] = peer_counts(mine.dist(d), c[d], other.dist(d));
    if (per_dim[d].empty()) return;
  }
  std::array<std::size_t, D> pos{};
  while (true) {
    Coord<D> peer{};
    index_t elements = 1;
    for (int d = 0; d < D; ++d) {
      peer[d] = per_dim[d][pos[d]].first;
      elements *= per_dim[d][pos[d]].second;
    }
    f(peer, elements);
    int d = D - 1;
    for (; d >= 0; --d) {
      if (++pos[d] < per_dim[d].size()) break;
      pos[d] = 0;
    }
    if (d < 0) return;
  }
}

/// This rank's (messages, bytes) of one phase a -> b: the larger of sent and
/// received, self excluded; `renumbered` as in Candidate::destination_ranks.
template <int D>
std::pair<index_t, index_t> phase_load(const Layout<D>& a, const Layout<D>& b, int me,
                                       std::size_t element_bytes, const std::vector<int>& renumbered = {}) {
  index_t loads[2][2] = {{0, 0}, {0, 0}};  // [send, recv][messages, bytes]
  const auto add = [&](int side, int peer_rank, index_t elements) {
    if (peer_rank == me) return;
    ++loads[side][0];
    loads[side][1] = checked_add(loads[side][1], checked_bytes(elements, element_bytes), "byte count");
  };
  if (const auto c = a.grid().coord_of(me))
    for_each_peer<D>(a, *c, b,
                     [&](const Coord<D>& q, index_t n) { add(0, destination_rank<D>(b, renumbered, q), n); });
  if (const auto c = destination_coord<D>(b, renumbered, me))
    for_each_peer<D>(b, *c, a, [&](const Coord<D>& p, index_t n) { add(1, a.grid().rank_of(p), n); });
  return {std::max(loads[0][0], loads[1][0]), std::max(loads[0][1], loads[1][1])};
}

/// Kalns and Ni's processor mapping: assign destination coordinates to the
/// ranks of the destination grid so that the data each rank keeps is large —
/// greedily, largest kept amount first (collective: one allgather of this
/// rank's amounts per destination coordinate).
template <int D>
std::vector<int> keep_most_mapping(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm) {
  int me = 0, size = 1;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &me));
  DISTARRAY_MPI_CHECK(MPI_Comm_size(comm, &size));
  const int q = to.grid().size(), first = to.grid().first_rank;
  std::vector<index_t> all(std::size_t(q) * std::size_t(size));
  const std::vector<index_t> mine = agreed(comm, [&] {
    std::vector<index_t> kept(std::size_t(q), 0);
    if (const auto c = from.grid().coord_of(me))
      for_each_peer<D>(from, *c, to, [&](const Coord<D>& peer, index_t n) {
        kept[std::size_t(to.grid().rank_of(peer) - first)] += n;
      });
    return kept;
  });
  DISTARRAY_MPI_CHECK(MPI_Allgather(mine.data(), q, MPI_INT64_T, all.data(), q, MPI_INT64_T, comm));
  struct Pair {
    index_t kept;
    int rank, coord;
  };
  std::vector<Pair> pairs;
  for (int r = first; r < first + q; ++r)
    for (int c = 0; c < q; ++c)
      if (const index_t w = all[std::size_t(r) * std::size_t(q) + std::size_t(c)]; w > 0)
        pairs.push_back({w, r, c});
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& x, const Pair& y) { return x.kept > y.kept; });
  std::vector<int> ranks(std::size_t(q), -1);
  std::vector<bool> taken(std::size_t(size), false);
  for (const Pair& p : pairs)
    if (ranks[std::size_t(p.coord)] < 0 && !taken[std::size_t(p.rank)]) {
      ranks[std::size_t(p.coord)] = p.rank;
      taken[std::size_t(p.rank)] = true;
    }
  int next = first;  // coordinates that keep nothing take the free ranks in order
  for (int& r : ranks)
    if (r < 0) {
      while (taken[std::size_t(next)]) ++next;
      r = next;
      taken[std::size_t(next)] = true;
    }
  return ranks;
}

/// Block-size chains from s to t: the multiplicative partitions of the ratio
/// when one divides the other (at most three phases, at most eight chains,
/// fewer phases first), else via gcd and lcm.
std::vector<std::vector<index_t>> block_size_chains(index_t s, index_t t);

}  // namespace detail

template <int D>
std::vector<Candidate<D>> enumerate_candidates(const Layout<D>& from, const Layout<D>& to) {
  std::vector<Candidate<D>> out;
  out.push_back({"direct", RedistMethod::direct, {from, to}, {}, 0});
  if (!(from.grid() == to.grid())) return out;  // indirect and multiphase stay on one grid
  std::vector<int> changed;
  for (int d = 0; d < D; ++d)
    if (!from.dist(d).same_mapping(to.dist(d))) changed.push_back(d);
  if (changed.size() > 1) {
    std::vector<int> order = changed;
    do {
      Candidate<D> c{"indirect(", RedistMethod::indirect, {from}, {}, 0};
      for (int d : order) {
        std::array<Dist1D, D> dists = c.chain.back().dists();
        dists[d] = to.dist(d);
        c.chain.push_back(Layout<D>(from.grid(), dists));
        c.name += (c.name.back() == '(' ? "" : ",") + std::string("d") + std::to_string(d);
      }
      c.name += ")";
      out.push_back(std::move(c));
    } while (std::next_permutation(order.begin(), order.end()));
  }
  for (int d : changed) {
    const Dist1D& s = from.dist(d);
    const Dist1D& t = to.dist(d);
    for (const auto& sizes : detail::block_size_chains(s.block_size(), t.block_size())) {
      // Phase 1 moves every other dimension and dimension d to the first
      // intermediate size; later phases change only dimension d.
      Candidate<D> c{
          "multiphase(d" + std::to_string(d) + ": " + s.to_string(), RedistMethod::direct, {from}, {}, 0};
      for (std::size_t i = 1; i + 1 < sizes.size(); ++i) {
        std::array<Dist1D, D> dists = to.dists();
        dists[d] = Dist1D::cyclic_b(s.extent(), s.procs(), sizes[i]);
        c.chain.push_back(Layout<D>(from.grid(), dists));
        c.name += " -> cyclic(" + std::to_string(sizes[i]) + ")";
      }
      c.chain.push_back(to);
      c.name += " -> " + t.to_string() + ")";
      out.push_back(std::move(c));
    }
  }
  return out;
}

/// Kalns and Ni's candidate: the direct method with the destination grid's
/// ranks renumbered to keep the most data in place; nothing when the best
/// mapping found is the layout's own numbering (collective).
template <int D>
std::optional<Candidate<D>> renumbered_candidate(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm) {
  std::vector<int> ranks = detail::keep_most_mapping<D>(from, to, comm);
  for (std::size_t k = 0; k < ranks.size(); ++k)
    if (ranks[k] != to.grid().first_rank + int(k))
      return Candidate<D>{
          "direct, renumbered (Kalns-Ni)", RedistMethod::direct, {from, to}, {}, 0, std::move(ranks)};
  return std::nullopt;
}

/// Fills every candidate's phases and cost (collective over `comm`: the
/// slowest rank of each phase is found with one reduction).
/// Candidates the method cannot build are marked (Candidate::inapplicable)
/// and cost infinity; the same on every rank.
template <int D>
void evaluate_candidates(std::vector<Candidate<D>>& candidates, MPI_Comm comm, const CostModel& model,
                         std::size_t element_bytes, ScheduleMethod method) {
  int me = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &me));
  for (auto& c : candidates) c.inapplicable = chain_inapplicable<D>(c.chain, method).value_or("");
  const std::vector<index_t> local = detail::agreed(comm, [&] {
    std::vector<index_t> loads;
    for (const auto& c : candidates)
      for (std::size_t i = 0; i + 1 < c.chain.size(); ++i) {
        const auto [messages, bytes] =
            c.inapplicable.empty()
                ? detail::phase_load<D>(c.chain[i], c.chain[i + 1], me, element_bytes, c.destination_ranks)
                : std::pair<index_t, index_t>{0, 0};
        loads.push_back(messages);
        loads.push_back(bytes);
      }
    return loads;
  });
  std::vector<index_t> loads = local;
  DISTARRAY_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, loads.data(), int(loads.size()), MPI_INT64_T, MPI_MAX, comm));
  std::size_t k = 0;
  for (auto& c : candidates) {
    c.phases.clear();
    c.cost = 0;
    for (std::size_t i = 0; i + 1 < c.chain.size(); ++i, k += 2) {
      typename Candidate<D>::Phase p{loads[k], loads[k + 1],
                                     model.cost(double(loads[k]), double(loads[k + 1]))};
      c.cost += p.cost;
      c.phases.push_back(p);
    }
    if (!c.inapplicable.empty()) c.cost = std::numeric_limits<double>::infinity();
  }
}

/// The cheapest candidate the schedule method can build; ties go to the
/// earlier (fewer phases) one.  ScheduleError (the first candidate's reason)
/// when the method can build none.
template <int D>
std::size_t cheapest(const std::vector<Candidate<D>>& candidates) {
  std::size_t best = candidates.size();
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (candidates[i].inapplicable.empty() &&
        (best == candidates.size() || candidates[i].cost < candidates[best].cost))
      best = i;
  if (best == candidates.size()) throw ScheduleError(candidates.front().inapplicable);
  return best;
}

/// Every candidate with its phases, messages, bytes and modelled cost; the
/// chosen one marked with '*'.
template <int D>
std::string explain_candidates(const std::vector<Candidate<D>>& candidates, std::size_t chosen,
                               const CostModel& model) {
  std::ostringstream s;
  s << "cost model: ts = " << model.ts << " s/message, te = " << model.te << " s/byte (" << model.source
    << ")\n";
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const auto& c = candidates[i];
    s << (i == chosen ? "* " : "  ") << c.name << ": " << c.phases.size() << " phase"
      << (c.phases.size() == 1 ? "" : "s");
    if (!c.inapplicable.empty()) {
      s << ", not applicable: " << c.inapplicable << "\n";
      continue;
    }
    s << ", modelled " << c.cost * 1e3 << " ms\n";
    if (!c.destination_ranks.empty()) {
      s << "      destination coordinate -> rank:";
      for (std::size_t k = 0; k < c.destination_ranks.size(); ++k)
        s << " " << k << "->" << c.destination_ranks[k];
      s << "\n";
    }
    for (std::size_t k = 0; k < c.phases.size(); ++k)
      s << "      phase " << k + 1 << ": " << c.chain[k].to_string() << " -> " << c.chain[k + 1].to_string()
        << ": at most " << c.phases[k].max_messages << " messages, " << c.phases[k].max_bytes
        << " bytes per rank, " << c.phases[k].cost * 1e3 << " ms\n";
  }
  return s.str();
}

}  // namespace distarray
