// The ScaLAPACK descriptor module (distarray/scalapack/descriptor.hpp): its
// one set of rules, the block-cyclic index math of CyclicAxis (Dist1D's,
// counted from the source process) against ScaLAPACK's own NUMROC,
// INDXG2P, INDXG2L and INDXL2G, and the Layout a DistArray wraps.

#include <distarray/scalapack/descriptor.hpp>

#include <gtest/gtest.h>

#include <array>

extern "C" {
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
int indxg2p_(const int* indxglob, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
int indxg2l_(const int* indxglob, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
int indxl2g_(const int* indxloc, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
}

namespace distarray::scalapack {
namespace {

using Desc = std::array<int, DLEN_>;

Desc descriptor(int m, int n, int mb, int nb, int rsrc, int csrc, int lld) {
  return {1, 0, m, n, mb, nb, rsrc, csrc, lld};
}

TEST(Descriptor, OneSetOfRules) {
  EXPECT_FALSE(bad_entry(descriptor(10, 7, 3, 2, 1, 2, 5).data(), 2, 3));  // any source inside the grid
  EXPECT_FALSE(bad_entry(descriptor(0, 0, 1, 1, 0, 0, 1).data(), 1, 1));   // an empty matrix
  const std::pair<Desc, DescriptorEntry> bad[] = {
      {{2, 0, 4, 4, 2, 2, 0, 0, 4}, DTYPE_},     {descriptor(-1, 4, 2, 2, 0, 0, 4), M_},
      {descriptor(4, -1, 2, 2, 0, 0, 4), N_},    {descriptor(4, 4, 0, 2, 0, 0, 4), MB_},
      {descriptor(4, 4, 2, 0, 0, 0, 4), NB_},    {descriptor(4, 4, 2, 2, 2, 0, 4), RSRC_},
      {descriptor(4, 4, 2, 2, -1, 0, 4), RSRC_}, {descriptor(4, 4, 2, 2, 0, 3, 4), CSRC_},
  };
  for (const auto& [desc, entry] : bad) {
    EXPECT_EQ(bad_entry(desc.data(), 2, 3), entry) << entry_text(desc.data(), entry);
    EXPECT_THROW(descriptor_matrix(desc.data(), 2, 3, {0, 1, 2, 3, 4, 5}, 4), LayoutError);
  }
  EXPECT_EQ(entry_text(descriptor(4, 4, 2, 2, 0, 0, 3).data(), LLD_), "entry 9 (LLD_) is 3");
  EXPECT_TRUE(lld_fits(7, 5));  // padded
  EXPECT_TRUE(lld_fits(1, 0));  // a process with no rows still needs LLD_ >= 1
  EXPECT_FALSE(lld_fits(0, 0));
  EXPECT_FALSE(lld_fits(4, 5));
}

// Every extent, block, grid size and source up to small bounds, every index.
TEST(Descriptor, IndexMathEqualsScalapacksTools) {
  for (int n = 0; n <= 23; ++n)
    for (int nb = 1; nb <= 5; ++nb)
      for (int procs = 1; procs <= 4; ++procs)
        for (int src = 0; src < procs; ++src) {
          const CyclicAxis axis(n, nb, procs, src);
          SCOPED_TRACE(testing::Message()
                       << "n " << n << " nb " << nb << " procs " << procs << " src " << src);
          for (int p = 0; p < procs; ++p) {
            ASSERT_EQ(axis.local_extent(p), numroc_(&n, &nb, &p, &src, &procs)) << "process " << p;
            for (int l = 1; l <= axis.local_extent(p); ++l)
              ASSERT_EQ(axis.global_index(p, l - 1) + 1, indxl2g_(&l, &nb, &p, &src, &procs));
          }
          const int any = 0;
          for (int g = 1; g <= n; ++g) {
            ASSERT_EQ(axis.owner(g - 1), indxg2p_(&g, &nb, &any, &src, &procs)) << "index " << g;
            ASSERT_EQ(axis.local_index(g - 1) + 1, indxg2l_(&g, &nb, &any, &src, &procs)) << "index " << g;
          }
        }
}

TEST(Descriptor, MatrixOfAnySourceAndPaddedArrays) {
  const Desc d = descriptor(10, 7, 3, 2, 1, 2, 9);
  const BlockCyclicMatrix m = descriptor_matrix(d.data(), 2, 3, {5, 4, 3, 2, 1, 0}, 9);
  EXPECT_EQ(m.axes[0], CyclicAxis(10, 3, 2, 1));
  EXPECT_EQ(m.axes[1], CyclicAxis(7, 2, 3, 2));
  EXPECT_EQ(m.leading, 9);
  EXPECT_EQ(m.order, StorageOrder::column_major);
  EXPECT_EQ(m.local_extents(5), (Index<2>{4, 2}));  // process (0, 0): rows 3-5, 9; columns 2-3
  EXPECT_NO_THROW(m.validate(5, 6));
}

TEST(Descriptor, LayoutOnlyWhereALayoutExpressesIt) {
  const Desc d = descriptor(10, 7, 3, 2, 0, 0, 6);
  const Layout<2> layout = scalapack_layout(d.data(), 2, 3);
  EXPECT_EQ(layout.to_string(), Layout<2>::parse("cyclic(2),cyclic(3) on 3x2", {7, 10}).to_string());
  EXPECT_NO_THROW(check_scalapack_lld(d.data(), layout, Coord<2>{0, 0}));  // 6 local rows
  EXPECT_THROW(check_scalapack_lld(descriptor(10, 7, 3, 2, 0, 0, 7).data(), layout, Coord<2>{0, 0}),
               LayoutError);  // padded: not wrappable
  EXPECT_THROW(check_scalapack_lld(descriptor(10, 7, 3, 2, 0, 0, 5).data(), layout, Coord<2>{0, 0}),
               LayoutError);
  EXPECT_NO_THROW(check_scalapack_lld(descriptor(10, 7, 3, 2, 0, 0, 5).data(), layout, std::nullopt));
  EXPECT_THROW(scalapack_layout(descriptor(10, 7, 3, 2, 1, 0, 6).data(), 2, 3), LayoutError);
  EXPECT_THROW(scalapack_layout(descriptor(10, 7, 0, 2, 0, 0, 6).data(), 2, 3), LayoutError);
}

}  // namespace
}  // namespace distarray::scalapack
