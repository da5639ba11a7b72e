#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/tables/plan_tables.hpp is internal: include <distarray/redist.hpp>"
#endif
// The copy tables of one exchange from layout `from` to layout `to`, seen
// from one rank: per dimension the 1-D schedules, composed by tensor product
// (ARCHITECTURE Sec. 4.2) into one message per peer coordinate tuple.

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/redist/detail/tables/copy_table.hpp>
#include <distarray/redist/schedule.hpp>

#include <optional>
#include <utility>

namespace distarray::detail {

/// Adds a message per tuple of per-dimension peers; rank_of maps the tuple
/// (a grid coordinate of the other layout) to a rank of the exchange's communicator.
/// The order both sides of an exchange between blocks stored in `orders`
/// {source, destination} list a message's elements in: the destination's, so
/// that unpacking writes contiguous runs; a change of order is a local
/// transpose done by the pack, in cache tiles.
inline StorageOrder message_order(std::pair<StorageOrder, StorageOrder> orders) { return orders.second; }

template <int D, class RankOf>
void add_product_messages(CopyTable& table, const std::array<std::vector<PeerRuns>, D>& per_dim,
                          const Index<D>& extents, StorageOrder order, StorageOrder message,
                          RankOf&& rank_of) {
  std::array<std::size_t, D> sizes{};
  for (int d = 0; d < D; ++d) sizes[d] = per_dim[d].size();
  for_each_tuple(sizes, [&](const std::array<std::size_t, D>& pos) {
    Coord<D> peer{};
    std::array<const PeerRuns*, D> runs{};
    for (int d = 0; d < D; ++d) {
      runs[d] = &per_dim[d][pos[d]];
      peer[d] = runs[d]->peer;
    }
    table.add_message<D>(rank_of(peer), runs, extents, order, message);
  });
}

/// {send table, receive table} of the rank at coordinate `src` of `from`
/// and `dst` of `to` (either may be absent), whose local blocks are stored in
/// `orders` {source, destination}; the receive table stays empty unless `receive_side`.
template <int D, class SrcRankOf, class DstRankOf>
std::pair<CopyTable, CopyTable> exchange_tables(const Layout<D>& from, const Layout<D>& to,
                                                const std::optional<Coord<D>>& src,
                                                const std::optional<Coord<D>>& dst, ScheduleMethod method,
                                                SrcRankOf&& src_rank_of, DstRankOf&& dst_rank_of,
                                                bool receive_side,
                                                std::pair<StorageOrder, StorageOrder> orders) {
  std::pair<CopyTable, CopyTable> tables;
  if (const auto& c = src) {
    std::array<std::vector<PeerRuns>, D> per_dim;
    for (int d = 0; d < D; ++d) per_dim[d] = partition_runs(method, from.dist(d), (*c)[d], to.dist(d));
    add_product_messages<D>(tables.first, per_dim, from.local_extents(*c), orders.first,
                            message_order(orders), dst_rank_of);
  }
  if (const auto c = receive_side ? dst : std::nullopt) {
    std::array<std::vector<PeerRuns>, D> per_dim;
    for (int d = 0; d < D; ++d) per_dim[d] = partition_runs(method, to.dist(d), (*c)[d], from.dist(d));
    add_product_messages<D>(tables.second, per_dim, to.local_extents(*c), orders.second,
                            message_order(orders), src_rank_of);
  }
  return tables;
}

}  // namespace distarray::detail
