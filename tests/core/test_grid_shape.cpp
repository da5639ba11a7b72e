#include <distarray/core/grid_shape.hpp>

#include <gtest/gtest.h>

#include <set>

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

TEST(GridShape, LinesJoinTheCoordinatesThatDifferInOneDimension) {
  const auto g = GridShape<3>::make({2, 3, 4});
  for (int d = 0; d < 3; ++d) {
    std::set<int> lines;
    for (int r = 0; r < g.size(); ++r) {
      const Coord<3> c = *g.coord_of(r);
      Coord<3> other = c;
      other[d] = (c[d] + 1) % g.dims[d];  // another place on c's line
      EXPECT_EQ(g.line_of(other, d), g.line_of(c, d));
      lines.insert(g.line_of(c, d));
    }
    EXPECT_EQ(int(lines.size()), g.size() / g.dims[d]) << "dimension " << d;  // numbered 0 .. lines-1
    EXPECT_EQ(*lines.rbegin(), g.size() / g.dims[d] - 1);
  }
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
