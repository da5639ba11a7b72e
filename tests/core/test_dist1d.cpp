#include "oracle.hpp"

#include <distarray/core/dist1d.hpp>
#include <distarray/core/error.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <random>

namespace distarray {
namespace {

// Every kind, N <= 130 (ragged, N < P and N = 0 included), P <= 9, b <= 13,
// against the dealing oracle: owner, local index, inverse, local extents.
TEST(Dist1D, MatchesDealingOracleExhaustively) {
  long cases = 0;
  for (index_t n = 0; n <= 130; ++n)
    for (int p = 1; p <= 9; ++p)
      for (index_t b = 1; b <= 13; ++b)
        for (const Dist1D& d : testing::all_kinds(n, p, b)) {
          const auto o = testing::deal(n, p, testing::hpf_block(d.kind(), n, p, d.parameter()));
          for (index_t g = 0; g < n; ++g) {
            ASSERT_EQ(d.owner(g), o.owner[g]) << d.to_string() << " n=" << n << " p=" << p << " g=" << g;
            ASSERT_EQ(d.local_index(g), o.local[g])
                << d.to_string() << " n=" << n << " p=" << p << " g=" << g;
          }
          index_t total = 0;
          for (int q = 0; q < p; ++q) {
            const auto& globals = o.globals[std::size_t(q)];
            ASSERT_EQ(d.local_extent(q), index_t(globals.size()))
                << d.to_string() << " n=" << n << " p=" << p;
            for (index_t l = 0; l < index_t(globals.size()); ++l) ASSERT_EQ(d.global_index(q, l), globals[l]);
            total += d.local_extent(q);
          }
          ASSERT_EQ(total, n);
          ++cases;
        }
  EXPECT_GT(cases, 50000);
}

// Extents near 10^12 and more processes than can be enumerated: sampled
// indices round-trip and the local extents add up to N.
TEST(Dist1D, HugeExtentsRoundTripOnSamples) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    const index_t n = index_t(rng() % 1'000'000'000'000ULL) + 1;
    const int p = int(rng() % 1000) + 1;
    const index_t b = index_t(rng() % 5000) + 1;
    for (const Dist1D& d : testing::all_kinds(n, p, b)) {
      index_t total = 0;
      for (int q = 0; q < p; ++q) total += d.local_extent(q);
      ASSERT_EQ(total, n) << d.to_string();
      for (int s = 0; s < 100; ++s) {
        const index_t g = index_t(rng() % std::uint64_t(n));
        const int q = d.owner(g);
        ASSERT_GE(q, 0);
        ASSERT_LT(q, p);
        const index_t l = d.local_index(g);
        ASSERT_LT(l, d.local_extent(q));
        ASSERT_EQ(d.global_index(q, l), g) << d.to_string() << " n=" << n << " p=" << p;
      }
    }
  }
}

TEST(Dist1D, RanksPastTheDataOwnNothing) {
  const Dist1D d = Dist1D::block(3, 5);  // b = 1: ranks 3 and 4 are empty
  EXPECT_EQ(d.local_extent(0), 1);
  EXPECT_EQ(d.local_extent(3), 0);
  EXPECT_EQ(d.local_extent(4), 0);
  const Dist1D e = Dist1D::block(10, 4);  // b = 3: 3,3,3,1
  EXPECT_EQ(e.local_extent(3), 1);
  const Dist1D z = Dist1D::cyclic_b(0, 4, 3);
  for (int q = 0; q < 4; ++q) EXPECT_EQ(z.local_extent(q), 0);
}

TEST(Dist1D, Spelling) {
  EXPECT_EQ(Dist1D::block(10, 2).to_string(), "block");
  EXPECT_EQ(Dist1D::block_m(10, 2, 7).to_string(), "block(7)");
  EXPECT_EQ(Dist1D::cyclic(10, 2).to_string(), "cyclic");
  EXPECT_EQ(Dist1D::cyclic_b(10, 2, 3).to_string(), "cyclic(3)");
  EXPECT_EQ(Dist1D::collapsed(10).to_string(), "*");
}

TEST(Dist1D, EquivalentKindsShareTheMapping) {
  EXPECT_TRUE(Dist1D::block(12, 3).same_mapping(Dist1D::cyclic_b(12, 3, 4)));
  // A block wider than the array maps like a block of the whole array.
  EXPECT_TRUE(Dist1D::block_m(12, 3, 100).same_mapping(Dist1D::block_m(12, 3, 12)));
  EXPECT_FALSE(Dist1D::block(12, 3).same_mapping(Dist1D::cyclic(12, 3)));
  EXPECT_NE(Dist1D::block(12, 3), Dist1D::cyclic_b(12, 3, 4));  // same mapping, different spelling
}

TEST(Dist1D, InvalidParametersThrowNamingTheDistribution) {
  EXPECT_THROW(Dist1D::block(-1, 2), LayoutError);
  EXPECT_THROW(Dist1D::cyclic(10, 0), LayoutError);
  EXPECT_THROW(Dist1D::cyclic_b(10, 2, 0), LayoutError);
  try {
    Dist1D::block_m(18, 3, 4);
    FAIL() << "block(4) over 3 processes cannot hold 18 elements";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("'block(4)'"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(Dist1D::block_m(18, 3, 6));
  EXPECT_THROW(Dist1D::cyclic_b(index_t(1) << 62, 1 << 20, index_t(1) << 50), LayoutError);
}

// ceil(N/P) at the top of the index range: computed as (N + P - 1) / P it
// overflowed, refusing block over 3 of max - 1 elements with a negative
// block size, and letting block(5) over 3 processes pass for max elements.
TEST(Dist1D, ExtentsAtTheIndexLimit) {
  constexpr index_t max = std::numeric_limits<index_t>::max();
  const Dist1D d = Dist1D::block(max - 1, 3);
  EXPECT_EQ(d.block_size(), max / 3);
  EXPECT_EQ(d.local_extent(0) + d.local_extent(1) + d.local_extent(2), max - 1);
  EXPECT_EQ(d.owner(max - 2), 2);
  EXPECT_EQ(d.global_index(2, d.local_index(max - 2)), max - 2);
  EXPECT_THROW(Dist1D::block_m(max, 3, 5), LayoutError);
  try {
    Dist1D::block(max, 2);  // P * ceil(N/P) = 2^63
    FAIL() << "block over 2 processes of 2^63 - 1 elements needs 2^63 indices";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("overflows 64-bit indices"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace distarray
