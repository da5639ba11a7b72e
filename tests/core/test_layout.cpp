#include <distarray/core/layout.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace distarray {
namespace {

// Parse, print, parse again: the same layout, and the canonical text is stable.
TEST(Layout, ParsePrintRoundTrip) {
  const std::vector<std::pair<std::string, Index<2>>> cases = {{"block,* on 4x1", {100, 7}},
                                                               {"*,block on 1x4", {100, 7}},
                                                               {"block(64),block(64) on 2x2", {128, 100}},
                                                               {"cyclic,block on 3x1@4", {10, 10}},
                                                               {"cyclic(4),* on 4x1", {30, 3}},
                                                               {"cyclic(3),cyclic(5) on 2x3@1", {0, 17}},
                                                               {"block,block on 5x2", {3, 1}}};
  for (const auto& [text, shape] : cases) {
    const auto l = Layout<2>::parse(text, shape);
    EXPECT_EQ(l.to_string(), text);
    EXPECT_EQ(Layout<2>::parse(l.to_string(), shape), l);
    EXPECT_EQ(l.shape(), shape);
  }
  // Case and blanks are forgiven; printing gives the canonical form.
  EXPECT_EQ(Layout<2>::parse("  BLOCK( 64 ) , Cyclic on 2 x 2 @ 3 ", {128, 9}).to_string(),
            "block(64),cyclic on 2x2@3");
  EXPECT_EQ(Layout<1>::parse("cyclic(2) on 3", {18}).to_string(), "cyclic(2) on 3");
  EXPECT_EQ(Layout<3>::parse("block,block,* on 2x2x1", {8, 8, 8}).to_string(), "block,block,* on 2x2x1");
}

// Every element has exactly one owner, and the local extents tile the array.
TEST(Layout, LocalExtentsTileTheArray) {
  const auto l = Layout<3>::parse("cyclic(2),block,cyclic on 2x3x2@2", {9, 7, 5});
  std::set<std::pair<int, Index<3>>> seen;
  for (index_t i = 0; i < 9; ++i)
    for (index_t j = 0; j < 7; ++j)
      for (index_t k = 0; k < 5; ++k) {
        const Index<3> g{i, j, k};
        const int r = l.owner_rank(g);
        const auto c = l.grid().coord_of(r);
        ASSERT_TRUE(c);
        const Index<3> loc = l.local_index(g);
        const Index<3> ext = l.local_extents(*c);
        for (int d = 0; d < 3; ++d) ASSERT_LT(loc[d], ext[d]);
        EXPECT_EQ(l.global_index(*c, loc), g);
        EXPECT_TRUE(seen.insert({r, loc}).second);
      }
  index_t total = 0;
  for (int r = 2; r < 14; ++r) total += element_count(l.local_extents(*l.grid().coord_of(r)));
  EXPECT_EQ(total, 9 * 7 * 5);
}

/// The LayoutError message of parsing `text` for `shape`.
template <int D>
std::string error_of(const std::string& text, const Index<D>& shape) {
  try {
    Layout<D>::parse(text, shape);
  } catch (const LayoutError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Layout, ErrorsNameTheOffendingToken) {
  const std::vector<std::tuple<std::string, Index<2>, std::string>> cases = {
      {"blok,* on 2x1", {8, 8}, "unknown distribution 'blok'"},
      {"block,cyclic(0) on 2x1", {8, 8}, "block size must be >= 1 in 'cyclic(0)'"},
      {"block(0),* on 2x1", {8, 8}, "'block(0)'"},
      {"block(3),* on 2x1", {8, 8}, "'block(3)' over 2 processes covers fewer than the 8 elements"},
      {"*,block on 2x2", {8, 8}, "'*' needs a grid extent of 1"},
      {"block on 2", {8, 8}, "1 distributions for a 2-dimensional shape"},
      {"block,block on 2", {8, 8}, "grid 'on 2' has 1 dimensions"},
      {"block,block on 2x0", {8, 8}, "grid extent '0' must be >= 1"},
      {"block,block", {8, 8}, "missing 'on <grid>'"},
      {"block,block in 2x2", {8, 8}, "unexpected 'in'"},
      {"block,block on 2x2 extra", {8, 8}, "unexpected 'extra'"},
      {"block,block on 2x2@", {8, 8}, "first rank expected after '@'"},
      {"block,block on x2", {8, 8}, "grid extent expected after 'on', got 'x2'"},
      {"cyclic(3,block on 2x2", {8, 8}, "expected 'cyclic(<positive integer>)', got 'cyclic(3,'"},
      {"cyclic(99999999999999999999),* on 2x1", {8, 8}, "number '99999999999999999999' is too large"},
      {"%%%", {8, 8}, "unknown distribution '%'"},
      {"", {8, 8}, "empty layout"},
  };
  for (const auto& [text, shape, expected] : cases) {
    const std::string message = error_of<2>(text, shape);
    EXPECT_NE(message.find(expected), std::string::npos) << "text: '" << text << "' gave: " << message;
    EXPECT_NE(message.find("layout '" + text + "'"), std::string::npos) << message;
  }
}

TEST(Layout, MismatchedGridAndDistributionsAreRejected) {
  const auto grid = GridShape<2>::make({2, 2});
  EXPECT_THROW(Layout<2>(grid, {Dist1D::block(8, 2), Dist1D::block(8, 3)}), LayoutError);
}

TEST(Layout, ShapeText) {
  EXPECT_EQ(parse_shape("4096x4096"), (std::vector<index_t>{4096, 4096}));
  EXPECT_EQ(parse_shape("18"), (std::vector<index_t>{18}));
  EXPECT_THROW(parse_shape("4096y4096"), LayoutError);
  EXPECT_THROW(parse_shape("x4"), LayoutError);
  EXPECT_THROW(parse_shape(""), LayoutError);
}

}  // namespace
}  // namespace distarray
