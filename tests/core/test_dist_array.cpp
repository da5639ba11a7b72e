#include <distarray/core/dist_array.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::pattern_value;
using testing::world_size;

/// Fills with the pattern, gathers to rank 0, compares every element.
template <int D>
void check_fill_gather(const std::string& text, const Index<D>& shape) {
  SCOPED_TRACE(text);
  const auto layout = Layout<D>::parse(text, shape);
  DistArray<double, D> a(layout, MPI_COMM_WORLD);
  a.fill([&](const Index<D>& g) { return pattern_value<double, D>(g, shape); });
  // Local elements sit where the layout says.
  auto host = Kokkos::create_mirror_view(a.local());
  Kokkos::deep_copy(host, a.local());
  for (index_t i = 0; i < a.local_size(); ++i)
    ASSERT_EQ(host.data()[i],
              (pattern_value<double, D>(a.global_index(row_major_index(i, a.local_extents())), shape)));
  const std::vector<double> all = a.gather(0);
  if (a.grid().rank() != 0) {
    EXPECT_TRUE(all.empty());
    return;
  }
  ASSERT_EQ(index_t(all.size()), element_count(shape));
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], double(i)) << "element " << i;
}

/// "PxQ..." grids that fit the world, including ones that leave ranks out.
std::vector<std::string> grids_2d(int n) {
  std::vector<std::string> v;
  for (int p = 1; p <= n; ++p)
    for (int q = 1; p * q <= n; ++q) v.push_back(std::to_string(p) + "x" + std::to_string(q));
  return v;
}

TEST(DistArray, FillGather1D) {
  const int n = world_size();
  for (int p = 1; p <= n; ++p)
    for (const char* dist : {"block", "cyclic", "cyclic(3)", "block(7)"})
      for (index_t extent : {0, 1, 5, 17, 64})
        if (std::string(dist) != "block(7)" || 7 * p >= extent)
          check_fill_gather<1>(std::string(dist) + " on " + std::to_string(p), {extent});
  if (n > 1) check_fill_gather<1>("cyclic(2) on " + std::to_string(n - 1) + "@1", {11});
}

TEST(DistArray, FillGather2D) {
  for (const std::string& grid : grids_2d(world_size()))
    for (const char* dists : {"block,block", "cyclic,cyclic(2)", "cyclic(3),block", "block(5),cyclic"})
      for (const Index<2>& shape : {Index<2>{13, 7}, Index<2>{2, 9}, Index<2>{0, 4}})
        if (std::string(dists) != "block(5),cyclic" || 5 * (grid[0] - '0') >= shape[0])
          check_fill_gather<2>(std::string(dists) + " on " + grid, shape);
  check_fill_gather<2>("block,* on " + std::to_string(world_size()) + "x1", {10, 6});
  check_fill_gather<2>("*,cyclic on 1x" + std::to_string(world_size()), {10, 6});
}

TEST(DistArray, FillGather3D) {
  const int n = world_size();
  check_fill_gather<3>("block,block,* on " + std::to_string(n) + "x1x1", {7, 5, 3});
  check_fill_gather<3>("cyclic(2),*,block on " + std::to_string(n) + "x1x1", {9, 4, 6});
  if (n >= 4) check_fill_gather<3>("block,cyclic,cyclic(2) on 2x1x2", {5, 6, 7});
  if (n >= 6) check_fill_gather<3>("cyclic,block,block on 1x2x3", {4, 5, 7});
  if (n >= 3) check_fill_gather<3>("block,block,cyclic on 1x2x1@1", {3, 3, 3});
}

TEST(DistArray, RanksOutsideTheGridHoldNothing) {
  const auto layout = Layout<2>::parse("block,block on 1x1", {6, 6});
  DistArray<std::complex<double>, 2> a(layout, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return std::complex<double>(double(g[0]), -double(g[1])); });
  if (a.grid().rank() != 0) {
    EXPECT_EQ(a.local_size(), 0);
    EXPECT_FALSE(a.grid().contains_me());
  }
  const auto all = a.gather();
  if (a.grid().rank() == 0) EXPECT_EQ(all[7], std::complex<double>(1, -1));
}

TEST(DistArray, WithMemoryPlacesTheLayoutOverOtherMemoryOnTheSameGrid) {
  const Index<2> shape{7, 5};
  using HostArray = DistArray<double, 2, Kokkos::HostSpace>;
  const auto layout = Layout<2>::parse("cyclic(2),block on " + std::to_string(world_size()) + "x1", shape);
  HostArray a(layout, MPI_COMM_WORLD);
  std::vector<double> other(std::size_t(a.local_size()) + 1);
  // Called on one rank only: it must not be collective (the others go on to a collective).
  if (a.grid().rank() == 0) {
    const HostArray b = a.with_memory(other.data() + 1);
    EXPECT_EQ(b.comm(), a.comm());
    EXPECT_EQ(b.layout(), layout);
    EXPECT_EQ(b.local_extents(), a.local_extents());
    EXPECT_EQ(b.local().data(), other.data() + 1);
  }
  // What is filled through it lands in that memory, as wrap() would place it.
  HostArray b = a.with_memory(other.data() + 1);
  b.fill([&](const Index<2>& g) { return pattern_value<double, 2>(g, shape); });
  const std::vector<double> all = HostArray::wrap(layout, MPI_COMM_WORLD, other.data() + 1).gather(0);
  EXPECT_EQ(other[0], 0.0) << "wrote before the memory";
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], double(i)) << "element " << i;
}

TEST(DistArray, NodeSharedBlocksAreSeenByEveryRankOfTheNodeUntilTheLastCopyGoes) {
  // Ragged blocks, and ranks outside a 2x1 grid (holding nothing) where the world is larger.
  const Index<2> shape{7, 5};
  using HostArray = DistArray<double, 2, Kokkos::HostSpace>;
  const std::string grid = world_size() > 2 ? "2x1" : std::to_string(world_size()) + "x1";
  const auto layout = Layout<2>::parse("cyclic(2),block on " + grid, shape);
  const double* block = nullptr;
  {
    HostArray a(layout, MPI_COMM_WORLD, node_shared);
    a.fill([&](const Index<2>& g) { return pattern_value<double, 2>(g, shape); });
    block = a.local().data();
    const detail::NodeSharedPlace place = detail::node_shared_holding(block);
    ASSERT_NE(place.memory, nullptr) << "registered";
    EXPECT_EQ(place.offset, 0u);
    const auto* end = reinterpret_cast<const char*>(block) + place.memory->bytes_of(place.memory->me());
    EXPECT_EQ(detail::node_shared_holding(end - 1).memory, place.memory);
    EXPECT_EQ(detail::node_shared_holding(end).memory, nullptr) << "nothing past the block's last page";
    MPI_Barrier(MPI_COMM_WORLD);
    // Every peer's block, as mapped here, holds what the peer filled (every test rank is on this node).
    const detail::NodeMemory& memory = *place.memory;
    ASSERT_EQ(memory.ranks(), world_size());
    for (int r = 0; r < memory.ranks(); ++r) {
      const auto coord = layout.grid().coord_of(r);
      if (!coord) continue;
      const Index<2> extents = layout.local_extents(*coord);
      const auto* peer = reinterpret_cast<const double*>(memory.block(r));
      for (index_t i = 0; i < element_count(extents); ++i)
        ASSERT_EQ(peer[i],
                  (pattern_value<double, 2>(layout.global_index(*coord, row_major_index(i, extents)), shape)))
            << "rank " << r << ", element " << i;
    }
    const HostArray copy = a;  // the block lives while a copy does
    { const HostArray gone = std::move(a); }
    EXPECT_NE(detail::node_shared_holding(block).memory, nullptr);
    EXPECT_EQ(copy.gather(0).size(), copy.grid().rank() == 0 ? std::size_t(35) : 0u);
    MPI_Barrier(MPI_COMM_WORLD);  // (no rank unmaps while another reads: the test's order)
  }
  EXPECT_EQ(detail::node_shared_holding(block).memory, nullptr) << "unregistered with its last copy";
}

}  // namespace
}  // namespace distarray
