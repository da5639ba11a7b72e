#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/item_launch.hpp is internal: include <distarray/redist.hpp>"
#endif
// for_each_item: one launch over work items [begin, end) (run chunks of a
// copy table), each item on one thread of a team and its elements across
// that thread's vector lanes (Kokkos::ThreadVectorRange inside the item).
// On a GPU a thread's lanes are consecutive threads of a warp, so lanes that
// take consecutive elements of a run read and write memory coalesced, and a
// team holds as many items as the device recommends; on host backends a
// team is one thread and the lanes one loop, so each thread copies whole
// items in order (as a RangePolicy over items would).

#include <distarray/core/types.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>

namespace distarray::detail {

/// Vector lanes per item on a GPU: a warp, or fewer where the runs an item
/// walks are shorter (idle lanes would only spread the same bytes thinner).
constexpr int max_item_lanes = 32;

/// The lanes for runs of `mean_length` elements on average: the next power
/// of two, at most max_item_lanes.
inline int item_lanes(double mean_length) {
  int lanes = 1;
  while (lanes < max_item_lanes && lanes < mean_length) lanes *= 2;
  return lanes;
}

template <class Exec>
using ItemPolicy = Kokkos::TeamPolicy<Exec, Kokkos::IndexType<index_t>>;
template <class Exec>
using ItemTeam = typename ItemPolicy<Exec>::member_type;

/// The team kernel of for_each_item: team t takes items [begin + t *
/// per_team, ...), one per thread.
template <class Exec, class F>
struct ItemKernel {
  F item;
  index_t begin, end;
  int per_team;
  KOKKOS_INLINE_FUNCTION void operator()(const ItemTeam<Exec>& team) const {
    const index_t first = begin + index_t(team.league_rank()) * per_team;
    const index_t count = end - first < per_team ? end - first : index_t(per_team);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count),
                         [&](const index_t i) { item(first + i, team); });
  }
};

/// Calls item(i, team) for i in [begin, end) on `exec`, with `lanes` vector
/// lanes per item (clamped to what the backend has); one launch, not fenced.
template <class Exec, class F>
void for_each_item(const char* name, const Exec& exec, index_t begin, index_t end, int lanes, const F& item) {
  if (begin >= end) return;
  using Policy = ItemPolicy<Exec>;
  lanes = std::clamp(lanes, 1, Policy::vector_length_max());
  ItemKernel<Exec, F> kernel{item, begin, end, 1};
  kernel.per_team = std::max(
      1, Policy(exec, 1, Kokkos::AUTO, lanes).team_size_recommended(kernel, Kokkos::ParallelForTag()));
  const index_t league = (end - begin + kernel.per_team - 1) / kernel.per_team;
  Kokkos::parallel_for(name, Policy(exec, league, kernel.per_team, lanes), kernel);
}

}  // namespace distarray::detail
