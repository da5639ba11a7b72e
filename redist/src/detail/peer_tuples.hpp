#pragma once
// The peers of one process in a redistribution, with their element counts,
// for the cost model and the Kalns-Ni mapping (no runs are listed).

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/redist/peer_counts.hpp>

#include <array>
#include <utility>
#include <vector>

namespace distarray::detail {

/// Calls f(peer coordinate, elements) for every peer of process `c` of
/// `mine` in a redistribution to `other`: the tensor product of the 1-D
/// message sizes (peer_counts.hpp; exact for every schedule method).
template <int D, class F>
void for_each_peer(const Layout<D>& mine, const Coord<D>& c, const Layout<D>& other, F&& f) {
  std::array<std::vector<std::pair<int, index_t>>, D> per_dim;
  std::array<std::size_t, D> sizes{};
  for (int d = 0; d < D; ++d) {
    per_dim[d] = peer_counts(mine.dist(d), c[d], other.dist(d));
    sizes[d] = per_dim[d].size();
  }
  for_each_tuple(sizes, [&](const std::array<std::size_t, D>& pos) {
    Coord<D> peer{};
    index_t elements = 1;
    for (int d = 0; d < D; ++d) {
      peer[d] = per_dim[d][pos[d]].first;
      elements *= per_dim[d][pos[d]].second;
    }
    f(peer, elements);
  });
}

}  // namespace distarray::detail
