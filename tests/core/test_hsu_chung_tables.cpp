// Hsu and Chung, "Efficient methods for kr->r and r->kr array redistribution",
// Figures 1 and 2(a), reproduced exactly.  The paper's global indices start at
// 1 and its local indices at 0.

#include <distarray/core/dist1d.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace distarray {
namespace {

/// Owner of A[1..n] as "P0 P0 P1 ..." digits.
std::vector<int> owners(const Dist1D& d) {
  std::vector<int> v;
  for (index_t g = 0; g < d.extent(); ++g) v.push_back(d.owner(g));
  return v;
}

/// Each process's local array: the (1-based) global index at each local index.
std::vector<std::vector<index_t>> local_arrays(const Dist1D& d) {
  std::vector<std::vector<index_t>> v(std::size_t(d.procs()));
  for (int p = 0; p < d.procs(); ++p)
    for (index_t l = 0; l < d.local_extent(p); ++l) v[std::size_t(p)].push_back(d.global_index(p, l) + 1);
  return v;
}

// Figure 1: an 18-element array on three processors.
TEST(HsuChungTables, Figure1) {
  EXPECT_EQ(owners(Dist1D::block(18, 3)),
            (std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(owners(Dist1D::cyclic(18, 3)),
            (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(owners(Dist1D::cyclic_b(18, 3, 2)),
            (std::vector<int>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(owners(Dist1D::cyclic_b(18, 3, 3)),
            (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2}));
}

// Figure 2(a): BLOCK-CYCLIC(10) to BLOCK-CYCLIC(2) of A[1:30] over 3 processors.
TEST(HsuChungTables, Figure2a) {
  EXPECT_EQ(local_arrays(Dist1D::cyclic_b(30, 3, 10)),
            (std::vector<std::vector<index_t>>{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                                               {11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
                                               {21, 22, 23, 24, 25, 26, 27, 28, 29, 30}}));
  EXPECT_EQ(local_arrays(Dist1D::cyclic_b(30, 3, 2)),
            (std::vector<std::vector<index_t>>{{1, 2, 7, 8, 13, 14, 19, 20, 25, 26},
                                               {3, 4, 9, 10, 15, 16, 21, 22, 27, 28},
                                               {5, 6, 11, 12, 17, 18, 23, 24, 29, 30}}));
}

}  // namespace
}  // namespace distarray
