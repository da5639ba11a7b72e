#include "oracle.hpp"
#include "schedule_oracle.hpp"

#include <distarray/core/error.hpp>
#include <distarray/redist/schedule.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <sstream>

namespace distarray {
namespace {

std::string describe(const Dist1D& src, const Dist1D& dst) {
  std::ostringstream s;
  s << src.to_string() << " over " << src.procs() << " -> " << dst.to_string() << " over " << dst.procs()
    << ", N = " << src.extent();
  return s.str();
}

/// Distributions of n elements over p processes: every kind, block sizes 1..12.
std::vector<Dist1D> sweep_dists(index_t n, int p) {
  std::vector<Dist1D> v = {Dist1D::block(n, p), Dist1D::cyclic(n, p)};
  for (index_t b = 2; b <= 12; ++b) v.push_back(Dist1D::cyclic_b(n, p, b));
  const index_t m = (n + p - 1) / p;
  for (index_t extra : {1, 5}) v.push_back(Dist1D::block_m(n, p, std::max<index_t>(m, 1) + extra));
  if (p == 1) v.push_back(Dist1D::collapsed(n));
  return v;
}

/// Every applicable generator, every process on both sides, equals the oracle.
void check_all_methods(const Dist1D& src, const Dist1D& dst) {
  const auto expected = testing::expected_schedule(src, dst);
  for (ScheduleMethod m : all_schedule_methods()) {
    if (inapplicable(m, src, dst)) continue;
    for (int p = 0; p < src.procs(); ++p)
      ASSERT_EQ(testing::expand(partition_runs(m, src, p, dst)), expected.send[std::size_t(p)])
          << to_string(m) << " send of " << p << ": " << describe(src, dst);
    for (int q = 0; q < dst.procs(); ++q)
      ASSERT_EQ(testing::expand(partition_runs(m, dst, q, src)), expected.recv[std::size_t(q)])
          << to_string(m) << " receive of " << q << ": " << describe(src, dst);
  }
}

/// N <= 150, P_src, P_dst <= 7, all kinds and
/// block sizes <= 12, both directions; one source process count per instance.
/// DISTARRAY_SWEEP_MAX_N lowers the largest N (the sanitizer build runs N <= 40).
class ScheduleSweep : public ::testing::TestWithParam<int> {};

index_t sweep_max_n() {
  const char* text = std::getenv("DISTARRAY_SWEEP_MAX_N");
  return text ? std::max<index_t>(std::atol(text), 1) : 150;
}

TEST_P(ScheduleSweep, EveryMethodEqualsTheOracle) {
  const int ps = GetParam();
  long pairs = 0;
  for (index_t n = 0; n <= sweep_max_n(); ++n)
    for (int pd = 1; pd <= 7; ++pd)
      for (const Dist1D& src : sweep_dists(n, ps))
        for (const Dist1D& dst : sweep_dists(n, pd)) {
          check_all_methods(src, dst);
          if (HasFatalFailure()) return;
          ++pairs;
        }
  EXPECT_GT(pairs, 60 * sweep_max_n());  // more than 10,000 at the full N <= 150
}

INSTANTIATE_TEST_SUITE_P(SourceProcs, ScheduleSweep, ::testing::Range(1, 8));

/// Extents up to 10^12 and grids up to 10^4 processes: sampled elements sit
/// at the same message offset on the sending and the receiving side, and the
/// message sizes add up to the local extents.
TEST(Schedule, HugeExtentsAgreeOnSampledElements) {
  std::mt19937_64 rng(7);
  const auto pick = [&](index_t lo, index_t hi) { return lo + index_t(rng() % std::uint64_t(hi - lo + 1)); };
  int trials = 0;
  while (trials < 80) {
    const index_t n = pick(1, 1'000'000'000'000);
    // Half the trials: block-like distributions on up to 10^4 processes.  The
    // other half: small blocks whose lcm period stays below 10^5, because a
    // schedule's size is that of one period (the output a rank must hold).
    const bool blocky = trials % 2 == 0;
    const int ps = int(blocky ? pick(1, 10000) : pick(1, 64)),
              pd = int(blocky ? pick(1, 10000) : pick(1, 64));
    const index_t bs = blocky ? pick(n / ps / 2 + 1, n) : pick(1, 64);
    const index_t bd = blocky ? pick(n / pd / 2 + 1, n) : pick(1, 64);
    if (!blocky && std::lcm(ps * bs, pd * bd) > 100'000) continue;
    ++trials;
    const Dist1D src = Dist1D::cyclic_b(n, ps, bs), dst = Dist1D::cyclic_b(n, pd, bd);
    for (ScheduleMethod m : {ScheduleMethod::aspen, ScheduleMethod::hsu_chung, ScheduleMethod::thakur,
                             ScheduleMethod::automatic}) {
      if (inapplicable(m, src, dst)) continue;
      const bool divisible =
          src.block_size() % dst.block_size() == 0 || dst.block_size() % src.block_size() == 0;
      if (m == ScheduleMethod::thakur && !divisible) continue;  // Thakur's general method scans every element
      for (int s = 0; s < 10; ++s) {
        const index_t g = pick(0, n - 1);
        const int p = src.owner(g), q = dst.owner(g);
        const auto send = partition_runs(m, src, p, dst);
        const auto recv = partition_runs(m, dst, q, src);
        index_t send_total = 0, recv_total = 0;
        for (const auto& r : send) send_total += r.size();
        for (const auto& r : recv) recv_total += r.size();
        ASSERT_EQ(send_total, src.local_extent(p)) << to_string(m) << ": " << describe(src, dst);
        ASSERT_EQ(recv_total, dst.local_extent(q)) << to_string(m) << ": " << describe(src, dst);
        const auto to_q =
            std::find_if(send.begin(), send.end(), [&](const PeerRuns& r) { return r.peer == q; });
        const auto from_p =
            std::find_if(recv.begin(), recv.end(), [&](const PeerRuns& r) { return r.peer == p; });
        ASSERT_NE(to_q, send.end());
        ASSERT_NE(from_p, recv.end());
        ASSERT_EQ(to_q->size(), from_p->size()) << to_string(m) << ": " << describe(src, dst);
        const auto at_sender = to_q->offset_of(src.local_index(g));
        const auto at_receiver = from_p->offset_of(dst.local_index(g));
        ASSERT_TRUE(at_sender && at_receiver) << to_string(m) << " g=" << g << ": " << describe(src, dst);
        ASSERT_EQ(*at_sender, *at_receiver) << to_string(m) << " g=" << g << ": " << describe(src, dst);
      }
    }
  }
}

// The size of a schedule does not grow with N: the same distributions over
// 10^3 and 10^12 elements give the same number of patterns and segments.
TEST(Schedule, SizeDoesNotGrowWithTheExtent) {
  for (ScheduleMethod m : {ScheduleMethod::aspen, ScheduleMethod::hsu_chung, ScheduleMethod::thakur}) {
    const auto small = partition_runs(m, Dist1D::cyclic_b(1200, 4, 6), 1, Dist1D::cyclic_b(1200, 4, 2));
    const auto huge = partition_runs(m, Dist1D::cyclic_b(1'200'000'000'000, 4, 6), 1,
                                     Dist1D::cyclic_b(1'200'000'000'000, 4, 2));
    ASSERT_EQ(small.size(), huge.size());
    for (std::size_t i = 0; i < small.size(); ++i) {
      EXPECT_EQ(small[i].patterns.size(), huge[i].patterns.size()) << to_string(m);
      EXPECT_EQ(small[i].patterns[0].segments, huge[i].patterns[0].segments) << to_string(m);
    }
  }
}

TEST(Schedule, GeneratorsThatDoNotApplySaySo) {
  const Dist1D a = Dist1D::cyclic_b(100, 4, 6), b = Dist1D::cyclic_b(100, 3, 2),
               c = Dist1D::cyclic_b(100, 4, 4);
  ASSERT_TRUE(inapplicable(ScheduleMethod::hsu_chung, a, b));
  EXPECT_NE(inapplicable(ScheduleMethod::hsu_chung, a, b)->find("equal process counts"), std::string::npos);
  EXPECT_NE(inapplicable(ScheduleMethod::hsu_chung, a, c)->find("multiple"), std::string::npos);
  EXPECT_THROW(partition_runs(ScheduleMethod::hsu_chung, a, 0, c), ScheduleError);
  EXPECT_FALSE(inapplicable(ScheduleMethod::aspen, a, b));
  EXPECT_THROW(partition_runs(ScheduleMethod::aspen, a, 0, Dist1D::cyclic(99, 4)), ShapeMismatch);
  EXPECT_THROW(partition_runs(ScheduleMethod::aspen, a, 4, b), Error);
}

TEST(Schedule, DispatcherPicksTheFastestApplicableMethod) {
  EXPECT_EQ(choose_schedule_method(Dist1D::cyclic_b(60, 3, 10), Dist1D::cyclic_b(60, 3, 2)),
            ScheduleMethod::hsu_chung);
  EXPECT_EQ(choose_schedule_method(Dist1D::block(60, 3), Dist1D::cyclic(60, 5)), ScheduleMethod::thakur);
  EXPECT_EQ(choose_schedule_method(Dist1D::cyclic_b(60, 3, 4), Dist1D::cyclic_b(60, 3, 6)),
            ScheduleMethod::aspen);
  EXPECT_EQ(parse_schedule_method("krr"), ScheduleMethod::hsu_chung);  // the old name
  EXPECT_EQ(to_string(ScheduleMethod::hsu_chung), "hsu-chung");
  EXPECT_EQ(parse_schedule_method("hsu-chung"), ScheduleMethod::hsu_chung);
  EXPECT_THROW(parse_schedule_method("fastest"), UsageError);
}

}  // namespace
}  // namespace distarray
