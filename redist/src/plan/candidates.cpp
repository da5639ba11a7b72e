// The candidates of a plan (candidates.hpp): the chains of layouts, the
// Kalns-Ni renumbering, and which schedule methods can build them.

#include "detail/dimensions.hpp"
#include "detail/peer_tuples.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/candidates.hpp>

#include <algorithm>
#include <numeric>

namespace distarray {

namespace detail {

namespace {

/// Chains from 1 to k through divisors, each step a factor > 1, at most `phases` steps.
void divisor_chains(index_t k, int phases, std::vector<index_t>& prefix,
                    std::vector<std::vector<index_t>>& out) {
  const index_t at = prefix.back();
  if (at == k) {
    out.push_back(prefix);
    return;
  }
  if (phases == 0) return;
  for (index_t f = 2; at * f <= k; ++f)
    if ((k / at) % f == 0) {
      prefix.push_back(at * f);
      divisor_chains(k, phases - 1, prefix, out);
      prefix.pop_back();
    }
}

}  // namespace

std::vector<std::vector<index_t>> block_size_chains(index_t s, index_t t) {
  std::vector<std::vector<index_t>> chains;
  if (s % t == 0 || t % s == 0) {
    const index_t small = std::min(s, t), k = std::max(s, t) / small;
    if (k > 4096) return chains;  // a bounded number of candidates
    std::vector<index_t> prefix = {1};
    std::vector<std::vector<index_t>> factors;
    divisor_chains(k, 3, prefix, factors);
    for (auto& f : factors) {
      if (f.size() <= 2) continue;  // one phase: that is the direct candidate
      std::vector<index_t> sizes;
      for (index_t x : f) sizes.push_back(x * small);
      if (s > t) std::reverse(sizes.begin(), sizes.end());
      chains.push_back(sizes);
    }
    // Fewer phases first: the cheapest-candidate choice keeps the earliest of equals.
    std::stable_sort(chains.begin(), chains.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
    return chains;
  }
  const index_t g = std::gcd(s, t), l = s / g * t;
  chains.push_back({s, g, t});
  chains.push_back({s, l, t});
  return chains;
}

template <int D>
std::vector<int> keep_most_mapping(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm) {
  const int me = detail::rank_of(comm), size = detail::ranks_of(comm);
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

}  // namespace detail

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

template <int D>
std::optional<Candidate<D>> renumbered_candidate(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm) {
  std::vector<int> ranks = detail::keep_most_mapping<D>(from, to, comm);
  for (std::size_t k = 0; k < ranks.size(); ++k)
    if (ranks[k] != to.grid().first_rank + int(k))
      return Candidate<D>{
          "direct, renumbered (Kalns-Ni)", RedistMethod::direct, {from, to}, {}, 0, std::move(ranks)};
  return std::nullopt;
}

#define DISTARRAY_CANDIDATES(D)                                                                             \
  template std::optional<std::string> chain_inapplicable<D>(const std::vector<Layout<D>>&, ScheduleMethod); \
  template std::vector<Candidate<D>> enumerate_candidates<D>(const Layout<D>&, const Layout<D>&);           \
  template std::optional<Candidate<D>> renumbered_candidate<D>(const Layout<D>&, const Layout<D>&,          \
                                                               MPI_Comm);                                   \
  template std::vector<int> detail::keep_most_mapping<D>(const Layout<D>&, const Layout<D>&, MPI_Comm);
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_CANDIDATES)

}  // namespace distarray
