#include <distarray/redist/block_cyclic_matrix.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <string>

namespace distarray {

namespace {

Dist1D checked_axis(index_t extent, index_t block, int procs, int source) {
  const auto fail = [](const std::string& what) { throw LayoutError("block-cyclic axis: " + what); };
  if (extent < 0) fail("extent " + std::to_string(extent) + " is negative");
  if (block < 1) fail("block size " + std::to_string(block) + " is below 1");
  if (procs < 1) fail(std::to_string(procs) + " processes");
  if (source < 0 || source >= procs)
    fail("source process " + std::to_string(source) + " is outside 0.." + std::to_string(procs - 1));
  return Dist1D::cyclic_b(extent, procs, block);
}

}  // namespace

CyclicAxis::CyclicAxis(index_t extent, index_t block, int procs, int source)
    : dist_(checked_axis(extent, block, procs, source)), source_(source) {}

std::optional<std::array<int, 2>> BlockCyclicMatrix::coord_of(int rank) const {
  const auto it = std::find(ranks.begin(), ranks.end(), rank);
  if (it == ranks.end()) return std::nullopt;
  const int at = int(it - ranks.begin());
  return std::array<int, 2>{at / axes[1].procs(), at % axes[1].procs()};
}

Index<2> BlockCyclicMatrix::local_extents(int rank) const {
  const auto c = coord_of(rank);
  if (!c) return {0, 0};
  return {axes[0].local_extent((*c)[0]), axes[1].local_extent((*c)[1])};
}

void BlockCyclicMatrix::validate(int rank, int comm_size) const {
  const auto fail = [](const std::string& what) { throw LayoutError("block-cyclic matrix: " + what); };
  if (ranks.size() != std::size_t(axes[0].procs()) * std::size_t(axes[1].procs()))
    fail(std::to_string(ranks.size()) + " ranks for a " +
         extents_text(std::array{axes[0].procs(), axes[1].procs()}) + " grid");
  if (std::set<int>(ranks.begin(), ranks.end()).size() != ranks.size())
    fail("a rank appears twice in the grid");
  for (int r : ranks)
    if (r < 0 || r >= comm_size)
      fail("rank " + std::to_string(r) + " is outside the communicator of " + std::to_string(comm_size));
  const Index<2> local = local_extents(rank);
  const index_t inner = order == StorageOrder::column_major ? local[0] : local[1];
  if (coord_of(rank) && leading < std::max<index_t>(inner, 1))
    fail("leading dimension " + std::to_string(leading) + " is below the " + std::to_string(inner) +
         (order == StorageOrder::column_major ? " local rows" : " local columns"));
}

BlockCyclicMatrix matrix_of(const Layout<2>& layout, StorageOrder order, index_t leading) {
  BlockCyclicMatrix m;
  for (int d = 0; d < 2; ++d) {
    const Dist1D& dist = layout.dist(d);
    m.axes[std::size_t(d)] = CyclicAxis(dist.extent(), dist.block_size(), dist.procs());
  }
  const auto& grid = layout.grid();
  for (int p = 0; p < grid.dims[0]; ++p)
    for (int q = 0; q < grid.dims[1]; ++q) m.ranks.push_back(grid.rank_of({p, q}));
  m.order = order;
  m.leading = leading;
  return m;
}

}  // namespace distarray
