// Restores into another layout by row groups (io/detail/transfer/row_groups.hpp):
// groups of a few rows, so that small arrays have many of them, a shorter
// last one and groups in which some ranks read no rows, give the array saved
// and the checksum of the whole; which layouts go by groups; a restore
// through the public API large enough to take that path, and one that skips
// the checksum on that path and through whole slabs.

#include <distarray/io/checkpoint.hpp>

#include "mpi/pattern.hpp"
#include "mpi/raw_damage.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <optional>
#include <string>

namespace distarray {
namespace {

using testing::local_mismatches;
using testing::world_rank;

std::string p() { return testing::ranks_text(); }
int ranks() { return testing::world_size(); }

std::string file(const std::string& name) { return testing::launch_file("test_row_groups_" + name); }

/// Saves `saved`, restores it into `into` by groups of `group` rows and
/// checks the elements and the checksum.
template <class T, int D>
void expect_groups_restore(const DistArray<T, D>& saved, DistArray<T, D, Kokkos::HostSpace>& into,
                           index_t group, const std::string& path) {
  SCOPED_TRACE(into.layout().to_string() + ", groups of " + std::to_string(group) + " rows");
  save(path, "a", saved);
  {
    const auto f = detail::Hdf5File::open(path, MPI_COMM_WORLD);
    const auto ds = f.open_dataset("a");
    const detail::DatasetMeta meta = detail::read_meta(f, ds.get(), "a");
    const detail::KeyedSums sums =
        detail::read_by_row_groups(f, ds.get(), "a", meta.element_type, into, group);
    EXPECT_EQ(detail::keyed_checksum(sums, meta.element_type, meta.shape, MPI_COMM_WORLD), meta.checksum);
  }
  EXPECT_EQ(local_mismatches(into), 0);
  if (world_rank() == 0) std::remove(path.c_str());
}

TEST(Checkpoint, RowGroupsRestoreTheArrayAndItsChecksum) {
  const Index<2> shape{23, 7};
  DistArray<double, 2> a(Layout<2>::parse("block,* on " + p() + "x1", shape), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  // Dimension 0 collapsed: groups of 2 rows on up to 6 ranks, the last of 1.
  DistArray<double, 2, Kokkos::HostSpace> columns(Layout<2>::parse("*,cyclic(2) on 1x" + p(), shape),
                                                  MPI_COMM_WORLD);
  expect_groups_restore(a, columns, 2, file("columns"));
  // Dimension 0 cyclic(2) over all ranks: groups of two cycles, ranks without rows in the last.
  DistArray<double, 2, Kokkos::HostSpace> cyclic(Layout<2>::parse("cyclic(2),block on " + p() + "x1", shape),
                                                 MPI_COMM_WORLD);
  expect_groups_restore(a, cyclic, 4 * ranks(), file("cyclic"));
  // Three dimensions of 16-byte elements, dimension 0 cyclic; one dimension of 4-byte ones.
  DistArray<std::complex<double>, 3> z(Layout<3>::parse("*,block,* on 1x" + p() + "x1", {9, 4, 5}),
                                       MPI_COMM_WORLD);
  testing::fill_pattern(z);
  DistArray<std::complex<double>, 3, Kokkos::HostSpace> z2(
      Layout<3>::parse("cyclic,*,cyclic on " + p() + "x1x1", {9, 4, 5}), MPI_COMM_WORLD);
  expect_groups_restore(z, z2, ranks(), file("c64"));
  DistArray<float, 1> f(Layout<1>::parse("block on " + p(), {101}), MPI_COMM_WORLD);
  testing::fill_pattern(f);
  DistArray<float, 1, Kokkos::HostSpace> f2(Layout<1>::parse("cyclic(3) on " + p(), {101}), MPI_COMM_WORLD);
  expect_groups_restore(f, f2, 6 * ranks(), file("f32"));
}

TEST(Checkpoint, RowGroupsStartAtWholeCyclesOfDimensionZero) {
  const index_t rows = 100000;
  const auto group = [&](const std::string& layout) {
    return detail::row_group_rows(Layout<2>::parse(layout, {rows, 512}), sizeof(double), 4);
  };
  // 4 MiB per rank of 4 KiB rows: 4096 rows, rounded up to whole cycles.
  EXPECT_EQ(group("*,block on 1x4"), 4096);
  EXPECT_EQ(group("cyclic(64),cyclic(64) on 1x4"), 4096);
  EXPECT_EQ(group("cyclic(100),* on 4x1"), 4400);
  EXPECT_EQ(group("cyclic,block on 3x1"), 4098);
  // One cycle is the whole dimension: through whole slabs.
  EXPECT_EQ(group("block,* on 4x1"), std::nullopt);
  EXPECT_EQ(group("block(30000),* on 4x1"), std::nullopt);
  // One group would hold every row.
  EXPECT_EQ(detail::row_group_rows(Layout<2>::parse("*,block on 1x4", {4096, 512}), 8, 4), std::nullopt);
  EXPECT_EQ(detail::row_group_rows(Layout<2>::parse("*,block on 1x4", {100, 0}), 8, 4), std::nullopt);
}

TEST(Checkpoint, RestoreIntoAnotherLayoutGoesByRowGroupsWhenLarge) {
  // Rows of 4 KiB, a few more than one group: two groups, the second short.
  const index_t group = *detail::row_group_rows(Layout<2>::parse("*,* on 1x1", {1 << 30, 1024}), 4, ranks());
  const Index<2> shape{group + 5, 1024};
  DistArray<float, 2> a(Layout<2>::parse("block,* on " + p() + "x1", shape), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  DistArray<float, 2> b(Layout<2>::parse("cyclic(3),cyclic(64) on 1x" + p(), shape), MPI_COMM_WORLD);
  ASSERT_TRUE(detail::row_group_rows(b.layout(), sizeof(float), ranks()));
  const std::string path = file("large");
  save(path, "a", a);
  restore(path, "a", b);
  EXPECT_EQ(local_mismatches(b), 0);
  if (world_rank() == 0) std::remove(path.c_str());
}

/// Elements of `a` unlike the pattern, over all ranks, and whether the one
/// at row-major global index `changed` (the only one allowed to differ) holds `value`.
template <class T, int D, class S, class O>
std::pair<index_t, bool> differences(const DistArray<T, D, S, O>& a, index_t changed, T value) {
  index_t bad = local_mismatches(a);
  int seen = 1;  // on the rank owning `changed`: whether it holds `value`
  const auto host = testing::host_block(a);
  for (index_t i = 0; i < a.local_size(); ++i) {
    const Index<D> g = a.global_index(a.local_index(i));
    if (row_major_offset(g, a.layout().shape()) == changed) seen = host.data()[i] == value;
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return {bad, seen == 1};
}

TEST(Checkpoint, ASkippedChecksumRestoresTheFileAsItIs) {
  const index_t group = *detail::row_group_rows(Layout<2>::parse("*,* on 1x1", {1 << 30, 1024}), 4, ranks());
  const Index<2> shape{group + 5, 1024};
  DistArray<float, 2> a(Layout<2>::parse("block,* on " + p() + "x1", shape), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  const std::string path = file("skipped");
  save(path, "a", a);
  // One element of the second group changed behind the checksum's back.
  const index_t changed = (group + 2) * 1024 + 100;
  const float value = -1.5f;
  testing::overwrite_raw_data(path, "a", changed * index_t(sizeof(float)), &value, sizeof value);
  DistArray<float, 2> by_groups(Layout<2>::parse("cyclic(3),cyclic(64) on 1x" + p(), shape), MPI_COMM_WORLD);
  DistArray<float, 2, Kokkos::HostSpace, Kokkos::LayoutLeft> by_slabs(
      Layout<2>::parse("cyclic(2),block on " + p() + "x1", shape), MPI_COMM_WORLD);
  ASSERT_TRUE(detail::row_group_rows(by_groups.layout(), sizeof(float), ranks()));
  testing::expect_throw_on_every_rank([&] { restore(path, "a", by_groups); }, "checksum mismatch");
  testing::expect_throw_on_every_rank([&] { restore(path, "a", by_slabs); }, "checksum mismatch");
  restore(path, "a", by_groups, {.verify_checksum = false});
  EXPECT_EQ(differences(by_groups, changed, value), std::make_pair(index_t(1), true));
  restore(path, "a", by_slabs, {.verify_checksum = false});
  EXPECT_EQ(differences(by_slabs, changed, value), std::make_pair(index_t(1), true));
  if (world_rank() == 0) std::remove(path.c_str());
}

}  // namespace
}  // namespace distarray
