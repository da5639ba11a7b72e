#include <distarray/core/grid_shape.hpp>

#include <gtest/gtest.h>

namespace distarray {
namespace {

TEST(GridShape, RowMajorRanksRoundTrip) {
  const auto g = GridShape<3>::make({2, 3, 4}, 5);
  EXPECT_EQ(g.size(), 24);
  EXPECT_EQ(g.end_rank(), 29);
  EXPECT_EQ(g.rank_of({0, 0, 0}), 5);
  EXPECT_EQ(g.rank_of({0, 0, 1}), 6);  // last dimension fastest
  EXPECT_EQ(g.rank_of({1, 0, 0}), 5 + 12);
  for (int r = 5; r < 29; ++r) {
    const auto c = g.coord_of(r);
    ASSERT_TRUE(c);
    EXPECT_EQ(g.rank_of(*c), r);
  }
  EXPECT_FALSE(g.coord_of(4));
  EXPECT_FALSE(g.coord_of(29));
}

TEST(GridShape, Spelling) {
  EXPECT_EQ(GridShape<2>::make({2, 3}).to_string(), "2x3");
  EXPECT_EQ(GridShape<2>::make({3, 1}, 4).to_string(), "3x1@4");
}

TEST(GridShape, RejectsEmptyAndOverflowingGrids) {
  EXPECT_THROW(GridShape<2>::make({0, 3}), LayoutError);
  EXPECT_THROW(GridShape<2>::make({2, 3}, -1), LayoutError);
  EXPECT_THROW(GridShape<2>::make({1 << 16, 1 << 16}), LayoutError);
}

}  // namespace
}  // namespace distarray
