#include <distarray/redist/runs.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace distarray {
namespace {

// Two copies of {[2,4), [7,8)} every 10, then [25, 27): local indices
// 2 3 7 12 13 17 25 26 at message offsets 0..7.
PeerRuns example() { return PeerRuns{3, {RunPattern{10, 2, {{2, 2}, {7, 1}}}, RunPattern{0, 1, {{25, 2}}}}}; }

TEST(PeerRuns, SizeAndSegments) {
  EXPECT_EQ(example().size(), 8);
  EXPECT_EQ(example().segment_count(), 5);
  std::vector<index_t> starts;
  example().for_each_segment([&](index_t s, index_t) { starts.push_back(s); });
  EXPECT_EQ(starts, (std::vector<index_t>{2, 7, 12, 17, 25}));
}

TEST(PeerRuns, OffsetOfEveryIndex) {
  const std::vector<index_t> members = {2, 3, 7, 12, 13, 17, 25, 26};
  const PeerRuns r = example();
  for (index_t l = 0; l < 30; ++l) {
    const auto it = std::find(members.begin(), members.end(), l);
    if (it == members.end())
      EXPECT_FALSE(r.offset_of(l)) << l;
    else
      EXPECT_EQ(r.offset_of(l), index_t(it - members.begin())) << l;
  }
}

}  // namespace
}  // namespace distarray
