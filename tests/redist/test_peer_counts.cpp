// peer_counts and local_runs against the per-element oracle: every pair of
// kinds, ragged extents, N < P, and processes that own nothing; then cases
// whose runs number 10^7 but whose counts are found at once.

#include "schedule_oracle.hpp"

#include <distarray/core/error.hpp>
#include <distarray/redist/peer_counts.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace distarray {
namespace {

std::vector<Dist1D> dists_of(index_t n, int p) {
  std::vector<Dist1D> v{Dist1D::block(n, p), Dist1D::cyclic(n, p)};
  for (index_t b : {2, 3, 5}) v.push_back(Dist1D::cyclic_b(n, p, b));
  if (p == 1) v.push_back(Dist1D::collapsed(n));
  const index_t m = (n + p - 1) / p + 2;  // block(m) needs m*P >= N
  v.push_back(Dist1D::block_m(n, p, std::max<index_t>(m, 1)));
  return v;
}

TEST(PeerCounts, EqualTheOracleForEveryPair) {
  int cases = 0;
  for (index_t n : {0, 1, 3, 17, 60, 97})
    for (int ps = 1; ps <= 5; ++ps)
      for (int pd = 1; pd <= 5; ++pd)
        for (const Dist1D& src : dists_of(n, ps))
          for (const Dist1D& dst : dists_of(n, pd)) {
            const auto expected = testing::expected_schedule(src, dst);
            for (int p = 0; p < ps; ++p) {
              std::vector<std::pair<int, index_t>> want;
              for (const auto& [peer, indices] : expected.send[std::size_t(p)])
                want.emplace_back(peer, index_t(indices.size()));
              ASSERT_EQ(peer_counts(src, p, dst), want)
                  << src.to_string() << " on " << ps << " -> " << dst.to_string() << " on " << pd << ", N "
                  << n << ", process " << p;
              ++cases;
            }
          }
  EXPECT_GT(cases, 10000);
}

TEST(PeerCounts, LongExtentsAreCountedWithoutListingRuns) {
  const index_t n = 100'000'000;
  // block on 2 -> cyclic(3) on 2: 1.7*10^7 runs per process, two counts.
  const auto counts = peer_counts(Dist1D::block(n, 2), 0, Dist1D::cyclic_b(n, 2, 3));
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].second + counts[1].second, n / 2);
  EXPECT_EQ(counts[0].second, 25'000'001);  // blocks 0, 2, ..., of 3 in [0, 5*10^7)
  // 10^12 elements on 10^4 processes, cyclic(7) -> cyclic(11).
  const index_t big = 1'000'000'000'000;
  index_t total = 0;
  for (const auto& [peer, count] :
       peer_counts(Dist1D::cyclic_b(big, 10000, 7), 123, Dist1D::cyclic_b(big, 9999, 11)))
    total += count;
  EXPECT_EQ(total, Dist1D::cyclic_b(big, 10000, 7).local_extent(123));
}

/// local_runs by walking `proc`'s local indices one by one.
index_t runs_by_element(const Dist1D& local, int proc, const Dist1D& remote) {
  index_t runs = 0;
  int last = -1;
  for (index_t l = 0; l < local.local_extent(proc); ++l) {
    const int owner = remote.owner(local.global_index(proc, l));
    runs += owner != last;
    last = owner;
  }
  return runs;
}

TEST(PeerCounts, LocalRunsEqualAWalkOfTheElements) {
  int cases = 0;
  for (index_t n : {0, 1, 3, 17, 60, 97, 240})
    for (int ps = 1; ps <= 5; ++ps)
      for (int pd = 1; pd <= 5; ++pd)
        for (const Dist1D& src : dists_of(n, ps))
          for (const Dist1D& dst : dists_of(n, pd))
            for (int p = 0; p < ps; ++p, ++cases)
              ASSERT_EQ(local_runs(src, p, dst), runs_by_element(src, p, dst))
                  << src.to_string() << " on " << ps << " -> " << dst.to_string() << " on " << pd << ", N "
                  << n << ", process " << p;
  EXPECT_GT(cases, 10000);
}

TEST(PeerCounts, LocalRunsOfLongExtentsAreCountedWithoutWalking) {
  const index_t n = 100'000'000;
  // block -> cyclic(3): a run per remote block of 3 in each half.
  EXPECT_EQ(local_runs(Dist1D::block(n, 2), 0, Dist1D::cyclic_b(n, 2, 3)), 16'666'667);
  // cyclic(3) -> block: two runs, one per destination half.
  EXPECT_EQ(local_runs(Dist1D::cyclic_b(n, 2, 3), 1, Dist1D::block(n, 2)), 2);
  // The same mapping on both sides: one run.
  EXPECT_EQ(local_runs(Dist1D::cyclic_b(n, 4, 7), 3, Dist1D::cyclic_b(n, 4, 7)), 1);
  const index_t big = 1'000'000'000'000;
  EXPECT_EQ(local_runs(Dist1D::cyclic_b(big, 10000, 7), 123, Dist1D::block(big, 1)), 1);
}

TEST(PeerCounts, DifferentExtentsAreAShapeMismatch) {
  EXPECT_THROW(peer_counts(Dist1D::block(10, 2), 0, Dist1D::block(11, 2)), ShapeMismatch);
  EXPECT_THROW(local_runs(Dist1D::block(10, 2), 0, Dist1D::block(11, 2)), ShapeMismatch);
}

}  // namespace
}  // namespace distarray
