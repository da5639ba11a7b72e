// What each candidate costs (candidates.hpp): this rank's per-phase load from
// the exact per-peer counts, the slowest rank's by one reduction, the cost
// model's time, the choice and its explanation.

#include "detail/dimensions.hpp"
#include "detail/peer_tuples.hpp"

#include <distarray/core/checked.hpp>
#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/candidates.hpp>

#include <limits>
#include <sstream>

namespace distarray {

namespace detail {

template <int D>
std::pair<index_t, index_t> phase_load(const Layout<D>& a, const Layout<D>& b, int me,
                                       std::size_t element_bytes, const std::vector<int>& renumbered) {
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

}  // namespace detail

template <int D>
void evaluate_candidates(std::vector<Candidate<D>>& candidates, MPI_Comm comm, const CostModel& model,
                         std::size_t element_bytes, ScheduleMethod method) {
  const int me = detail::rank_of(comm);
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

#define DISTARRAY_CANDIDATE_COSTS(D)                                                                        \
  template std::pair<index_t, index_t> detail::phase_load<D>(const Layout<D>&, const Layout<D>&, int,       \
                                                             std::size_t, const std::vector<int>&);         \
  template void evaluate_candidates<D>(std::vector<Candidate<D>>&, MPI_Comm, const CostModel&, std::size_t, \
                                       ScheduleMethod);                                                     \
  template std::size_t cheapest<D>(const std::vector<Candidate<D>>&);                                       \
  template std::string explain_candidates<D>(const std::vector<Candidate<D>>&, std::size_t, const CostModel&);
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_CANDIDATE_COSTS)

}  // namespace distarray
