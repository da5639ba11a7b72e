// MessageWaves: messages taken on arrival in at most max_waves contiguous
// waves, the same ones whatever the arrival order; each wave only of
// messages that have arrived, every message in exactly one wave, and the
// first waves taken before the last message arrives (the overlap the p2p
// engine is for).

#include "exchange/message_waves.hpp"  // redist/src

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

namespace distarray::detail {
namespace {

using Range = MessageWaves::Range;

/// The waves taken when the messages arrive in `order`, each checked as it is taken.
std::vector<Range> waves_for(MessageWaves& w, const std::vector<std::size_t>& order) {
  std::vector<char> arrived(order.size(), 0);
  std::vector<Range> taken;
  w.reset();
  for (const std::size_t m : order) {
    w.arrived(m);
    arrived[m] = 1;
    for (Range r = w.take(); r.first < r.second; r = w.take()) {
      for (std::size_t i = r.first; i < r.second; ++i) EXPECT_TRUE(arrived[i]) << "message " << i;
      taken.push_back(r);
    }
  }
  EXPECT_EQ(w.take(), Range(0, 0));  // nothing left
  std::sort(taken.begin(), taken.end());
  return taken;
}

/// The waves, in order, are consecutive and cover [0, n) once.
void expect_cover(const std::vector<Range>& waves, std::size_t n) {
  std::size_t next = 0;
  for (const Range& r : waves) {
    EXPECT_EQ(r.first, next);
    EXPECT_LT(r.first, r.second);
    next = r.second;
  }
  EXPECT_EQ(next, n);
}

TEST(MessageWaves, AtMostMaxWavesTheSameInAnyArrivalOrder) {
  std::mt19937 rng(38);
  for (const std::size_t n : {1u, 2u, 4u, 5u, 7u, 16u, 63u, 256u}) {
    std::vector<index_t> counts(n);
    for (auto& c : counts) c = index_t(std::uniform_int_distribution<int>(1, 1000)(rng));
    MessageWaves w(counts);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    const std::vector<Range> in_order = waves_for(w, order);
    EXPECT_EQ(in_order.size(), w.waves());
    for (int trial = 0; trial < 20; ++trial) {  // the same waves object, reset each time
      std::shuffle(order.begin(), order.end(), rng);
      const std::vector<Range> waves = waves_for(w, order);
      SCOPED_TRACE(::testing::Message() << n << " messages, trial " << trial);
      EXPECT_LE(waves.size(), std::size_t(MessageWaves::max_waves));
      EXPECT_EQ(waves, in_order);  // the same launches in every execution
      expect_cover(waves, n);
    }
  }
}

TEST(MessageWaves, InOrderArrivalsOverlapTheRest) {
  // 64 equal messages arriving in order: max_waves waves of 16, the first
  // taken when message 15 arrives (48 still on their way).
  MessageWaves w(std::vector<index_t>(64, 10));
  std::vector<std::size_t> order(64);
  std::iota(order.begin(), order.end(), 0);
  const std::vector<Range> waves = waves_for(w, order);
  ASSERT_EQ(waves.size(), std::size_t(MessageWaves::max_waves));
  for (std::size_t k = 0; k < waves.size(); ++k) EXPECT_EQ(waves[k], Range(16 * k, 16 * (k + 1)));
  w.reset();
  for (std::size_t m = 0; m < 15; ++m) {
    w.arrived(m);
    EXPECT_EQ(w.take(), Range(0, 0)) << "message " << m;
  }
  w.arrived(15);
  EXPECT_EQ(w.take(), Range(0, 16));
}

TEST(MessageWaves, WavesFollowElementsNotMessages) {
  // One large message first, then many small ones: the large one is a wave on its own.
  std::vector<index_t> counts(9, 1);
  counts[0] = 100;
  MessageWaves w(counts);
  w.reset();
  w.arrived(0);
  EXPECT_EQ(w.take(), Range(0, 1));
  for (std::size_t m = 1; m < 8; ++m) {
    w.arrived(m);
    EXPECT_EQ(w.take(), Range(0, 0)) << "message " << m;  // small: wait for the rest
  }
  w.arrived(8);
  EXPECT_EQ(w.take(), Range(1, 9));
  EXPECT_EQ(w.take(), Range(0, 0));
}

TEST(MessageWaves, AWaveWaitsForAllItsMessagesNotForEarlierWaves) {
  MessageWaves w(std::vector<index_t>(8, 1));  // waves of 2 messages
  ASSERT_EQ(w.waves(), 4u);
  w.reset();
  w.arrived(7);
  EXPECT_EQ(w.take(), Range(0, 0));  // message 6 is still on its way
  w.arrived(6);
  EXPECT_EQ(w.take(), Range(6, 8));  // before waves 0-2
  w.arrived(0);
  EXPECT_EQ(w.take(), Range(0, 0));
  w.arrived(1);
  EXPECT_EQ(w.take(), Range(0, 2));
}

TEST(MessageWaves, NoMessagesNoWaves) {
  MessageWaves w(std::vector<index_t>{});
  w.reset();
  EXPECT_EQ(w.waves(), 0u);
  EXPECT_EQ(w.take(), Range(0, 0));
}

TEST(MessageWaves, AMessageArrivingTwiceIsABug) {
  MessageWaves w({3});
  w.reset();
  w.arrived(0);
  EXPECT_THROW(w.arrived(0), std::logic_error);
}

}  // namespace
}  // namespace distarray::detail
