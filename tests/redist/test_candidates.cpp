#include <distarray/redist/candidates.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace distarray {
namespace {

/// Kaushik's analytic partner count of a 1-D single-phase redistribution
/// (the size of the distribution bases' difference), where it applies:
/// equal process counts P and block sizes s, t with one a multiple k of the
/// other: min(k, P) partners per rank, self included.
std::optional<index_t> kaushik_partners(const Dist1D& src, const Dist1D& dst) {
  const index_t s = src.block_size(), t = dst.block_size();
  if (src.procs() != dst.procs() || (s % t != 0 && t % s != 0)) return std::nullopt;
  return std::min<index_t>(std::max(s, t) / std::min(s, t), src.procs());
}

/// The slowest of `procs` simulated ranks in one phase: (messages, bytes).
std::pair<index_t, index_t> slowest(const Layout<1>& a, const Layout<1>& b, int procs) {
  std::pair<index_t, index_t> worst{0, 0};
  for (int me = 0; me < procs; ++me) {
    const auto [m, bytes] = detail::phase_load<1>(a, b, me, 8);
    worst = {std::max(worst.first, m), std::max(worst.second, bytes)};
  }
  return worst;
}

// Kaushik et al., Sec. 1: 192 elements on 8 processors, block -> cyclic(3).
// Single phase: every processor talks to seven others.  Two phases through
// cyclic(12): two messages per processor, then four.
TEST(Candidates, KaushikWorkedExample) {
  const auto block = Layout<1>::parse("block on 8", {192});
  const auto via = Layout<1>::parse("cyclic(12) on 8", {192});
  const auto target = Layout<1>::parse("cyclic(3) on 8", {192});
  EXPECT_EQ(slowest(block, target, 8).first, 7);
  EXPECT_EQ(slowest(block, via, 8).first, 2);
  EXPECT_EQ(slowest(via, target, 8).first, 4);
  // The two-phase route is among the candidates, with the multiplicative partitions of 8.
  std::vector<std::string> names;
  for (const auto& c : enumerate_candidates<1>(block, target)) names.push_back(c.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "multiphase(d0: block -> cyclic(12) -> cyclic(3))"),
            names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "multiphase(d0: block -> cyclic(6) -> cyclic(3))"),
            names.end());
  EXPECT_NE(
      std::find(names.begin(), names.end(), "multiphase(d0: block -> cyclic(12) -> cyclic(6) -> cyclic(3))"),
      names.end());
  EXPECT_EQ(names.front(), "direct");
}

// Kaushik's analytic partner count min(k, P) against the exact schedules,
// where both apply (N a multiple of the cycle P*max(s, t)).
TEST(Candidates, AnalyticPartnersMatchExactCounts) {
  long checked = 0;
  for (int p = 1; p <= 8; ++p)
    for (index_t small = 1; small <= 4; ++small)
      for (index_t k = 1; k <= 9; ++k)
        for (bool coarse_first : {true, false}) {
          const index_t n = 3 * p * small * k;
          const Dist1D fine = Dist1D::cyclic_b(n, p, small), coarse = Dist1D::cyclic_b(n, p, small * k);
          const Dist1D& src = coarse_first ? coarse : fine;
          const Dist1D& dst = coarse_first ? fine : coarse;
          const auto q = kaushik_partners(src, dst);
          ASSERT_TRUE(q);
          index_t most = 0;
          for (int me = 0; me < p; ++me)
            most =
                std::max<index_t>(most, index_t(partition_runs(ScheduleMethod::brute, src, me, dst).size()));
          EXPECT_EQ(most, *q) << "p=" << p << " s=" << src.block_size() << " t=" << dst.block_size();
          ++checked;
        }
  EXPECT_EQ(kaushik_partners(Dist1D::cyclic_b(60, 3, 4), Dist1D::cyclic_b(60, 3, 6)), std::nullopt);
  EXPECT_GT(checked, 500);
}

TEST(Candidates, BlockSizeChains) {
  using Chains = std::vector<std::vector<index_t>>;
  EXPECT_EQ(detail::block_size_chains(4, 6), (Chains{{4, 2, 6}, {4, 12, 6}}));
  EXPECT_EQ(detail::block_size_chains(2, 8), (Chains{{2, 4, 8}}));
  EXPECT_EQ(detail::block_size_chains(5, 5), Chains{});
}

}  // namespace
}  // namespace distarray
