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

#include <distarray/core/layout.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/cost_model.hpp>
#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

#include <algorithm>
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
};

/// Kaushik's analytic partner count of a 1-D single-phase redistribution
/// (the size of the distribution bases' difference), where it applies:
/// equal process counts P and block sizes s, t with one a multiple k of the
/// other: min(k, P) partners per rank, self included.
std::optional<index_t> kaushik_partners(const Dist1D& src, const Dist1D& dst);

namespace detail {

/// This rank's (messages, bytes) of one phase: the larger of sent and
/// received, self excluded.
template <int D>
std::pair<index_t, index_t> phase_load(const Layout<D>& a, const Layout<D>& b, int me, ScheduleMethod method,
                                       std::size_t element_bytes) {
  index_t loads[2][2] = {{0, 0}, {0, 0}};  // [send, recv][messages, bytes]
  for (int side = 0; side < 2; ++side) {
    const Layout<D>& mine = side == 0 ? a : b;
    const Layout<D>& other = side == 0 ? b : a;
    const auto c = mine.grid().coord_of(me);
    if (!c) continue;
    std::array<std::vector<PeerRuns>, D> per_dim;
    for (int d = 0; d < D; ++d) per_dim[d] = partition_runs(method, mine.dist(d), (*c)[d], other.dist(d));
    // Odometer over the peer tuples.
    std::array<std::size_t, D> pos{};
    bool done = false;
    for (int d = 0; d < D; ++d) done = done || per_dim[d].empty();
    while (!done) {
      Coord<D> peer{};
      index_t elements = 1;
      for (int d = 0; d < D; ++d) {
        peer[d] = per_dim[d][pos[d]].peer;
        elements *= per_dim[d][pos[d]].size();
      }
      if (other.grid().rank_of(peer) != me) {
        ++loads[side][0];
        loads[side][1] += elements * index_t(element_bytes);
      }
      int d = D - 1;
      for (; d >= 0; --d) {
        if (++pos[d] < per_dim[d].size()) break;
        pos[d] = 0;
      }
      done = d < 0;
    }
  }
  return {std::max(loads[0][0], loads[1][0]), std::max(loads[0][1], loads[1][1])};
}

/// Block-size chains from s to t: the multiplicative partitions of the ratio
/// when one divides the other (at most three phases), else via gcd and lcm.
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

/// Fills every candidate's phases and cost (collective over `comm`: the
/// slowest rank of each phase is found with one reduction).
template <int D>
void evaluate_candidates(std::vector<Candidate<D>>& candidates, MPI_Comm comm, const CostModel& model,
                         std::size_t element_bytes, ScheduleMethod method) {
  int me = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &me));
  std::vector<index_t> loads;
  for (const auto& c : candidates)
    for (std::size_t i = 0; i + 1 < c.chain.size(); ++i) {
      const auto [messages, bytes] =
          detail::phase_load<D>(c.chain[i], c.chain[i + 1], me, method, element_bytes);
      loads.push_back(messages);
      loads.push_back(bytes);
    }
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
  }
}

/// The cheapest candidate; ties go to the earlier (fewer phases) one.
template <int D>
std::size_t cheapest(const std::vector<Candidate<D>>& candidates) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (candidates[i].cost < candidates[best].cost) best = i;
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
      << (c.phases.size() == 1 ? "" : "s") << ", modelled " << c.cost * 1e3 << " ms\n";
    for (std::size_t k = 0; k < c.phases.size(); ++k)
      s << "      phase " << k + 1 << ": " << c.chain[k].to_string() << " -> " << c.chain[k + 1].to_string()
        << ": at most " << c.phases[k].max_messages << " messages, " << c.phases[k].max_bytes
        << " bytes per rank, " << c.phases[k].cost * 1e3 << " ms\n";
  }
  return s.str();
}

}  // namespace distarray
