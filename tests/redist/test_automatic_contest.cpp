// The automatic engine's contest (fake engines that take a set time): of
// three it keeps the fastest and frees what it does not use; where trials
// are cheap it takes the median of more rounds; one that cannot be made
// (the shared windows refused) leaves the contest without failing an
// execution; one made for its trial is timed only once its windows are
// warm; each is timed after itself, with the step's message to oneself
// and, where it does not carry it, the front end's agreement.  At every
// rank count of test_exchange_mpi.

#include "exchange/contest.hpp"  // redist/src: the rounds of trials
#include "redist/fake_engines.hpp"

#include <distarray/core/error.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

namespace distarray::detail {
namespace {

using namespace fake_engines;

TEST(AutomaticEngine, KeepsTheFastestOfThreeAndFreesWhatItDoesNotUse) {
  const double packed = 0.03, typed = 0.06, shared = 0.006;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back({timed("shared", &shared), ExchangeEngine::shared, false, false});
  Watched w(std::move(c));
  for (int k = 0; k < 7; ++k) {  // a warm-up, then each engine twice
    EXPECT_FALSE(w.automatic->settled()) << "settled after " << k << " executions";
    w.execute();
  }
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "shared");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::shared});
  EXPECT_EQ(w.buffers.held, (Held{{false, false}})) << "messages go through the window: both buffers freed";
}

TEST(AutomaticEngine, TakesTheMedianOfMoreRoundsWhereTrialsAreCheap) {
  // Datatypes take a quarter of packing's time one trial in three (the
  // second, fifth, ...) and four times it otherwise: the best of two trials
  // would keep them.  Rounds of 5 or 1.25 ms go on past two (six fill the
  // budget), and the lower median of any three or more trials is 4 ms
  // against packing's 1.
  const double packed = 0.001;
  std::vector<Contender> c;
  c.push_back({timed("alltoallv", &packed), ExchangeEngine::alltoallv, true, true});
  c.push_back({std::make_unique<TimedEngine>("datatype",
                                             [k = 0]() mutable {
                                               constexpr double seconds[] = {0.004, 0.00025, 0.004};
                                               return seconds[k++ % 3];
                                             }),
               ExchangeEngine::datatype, false, true});
  Watched w(std::move(c));
  int executions = 0;
  for (; !w.automatic->settled() && executions <= 1 + 2 * Contest::max_rounds; ++executions) w.execute();
  EXPECT_EQ(executions, 1 + 2 * 6) << "a warm-up and six rounds";
  EXPECT_EQ(w.automatic->name(), "alltoallv");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::alltoallv});
}

TEST(AutomaticEngine, TimesANewlyMadeContenderOnlyOnceItIsWarm) {
  // The shared windows' first two executions take 60 ms (one per window),
  // the later ones 3: timed from the first, the two rounds would keep packing.
  const double packed = 0.02, typed = 0.04, warm = 0.003;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back(made_cold(0.06, &warm, 2));
  Watched w(std::move(c));
  for (int k = 0; k < 7; ++k) w.execute();  // a warm-up, then each engine twice
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "shared");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::shared});
}

TEST(AutomaticEngine, TimesTheMessageToOneselfBetweenStartAndWait) {
  // Packing's messages move while the step copies its message to oneself
  // (15 ms): 20 ms an execution in all.  Datatypes move theirs inside
  // start, 15 ms, and then the copy: 30 ms.  Timed without the copy,
  // datatypes would win.
  std::vector<Contender> c;
  c.push_back(
      {std::make_unique<ProgressingEngine>("alltoallv", 0.02), ExchangeEngine::alltoallv, true, true});
  const double typed = 0.015;
  c.push_back({timed("datatype", &typed), ExchangeEngine::datatype, false, true});
  Watched w(std::move(c));
  int copies = 0;
  w.own = [&] {
    ++copies;
    now() += 0.015;
  };
  for (int k = 0; k < 5; ++k) w.execute();  // a warm-up, then each engine twice
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "alltoallv");
  EXPECT_GE(copies, 5) << "one copy an execution at least: every trial's (lead-ins copy too)";
  copies = 0;
  for (int k = 0; k < 8; ++k) w.execute();  // watched: the engine copies it, once
  EXPECT_EQ(copies, 8);
}

TEST(AutomaticEngine, TimesAnEngineAfterItself) {
  // Packing takes 2 ms right after another engine and 40 ms after itself;
  // datatypes 10 ms.  Timed after datatypes, packing would win.
  bool packing_last = false;
  std::vector<Contender> c;
  c.push_back({std::make_unique<TimedEngine>(
                   "alltoallv", [&] { return std::exchange(packing_last, true) ? 0.04 : 0.002; }),
               ExchangeEngine::alltoallv, true, true});
  c.push_back({std::make_unique<TimedEngine>("datatype", [&] { return packing_last = false, 0.01; }),
               ExchangeEngine::datatype, false, true});
  Watched w(std::move(c));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "datatype");
}

TEST(AutomaticEngine, ChargesTheAgreementToEnginesThatDoNotCarryIt) {
  // The front end's agreement takes 20 ms where made apart (set by hand
  // here): packing 10 ms and the agreement, against the shared window's
  // 15 ms with the agreement carried in its barrier.
  const double packed = 0.01;
  std::vector<Contender> c;
  c.push_back({timed("alltoallv", &packed), ExchangeEngine::alltoallv, true, true});
  c.push_back({std::make_unique<TimedEngine>(
                   "shared", [] { return 0.015; }, true),
               ExchangeEngine::shared, false, false});
  Watched w(std::move(c));
  w.agreement_seconds = 0.02;
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "shared");
  EXPECT_TRUE(w.automatic->carries_agreement());
}

/// The shared window's contender, refused where it is made (no room in /dev/shm).
Contender refused_shared() {
  return {nullptr, ExchangeEngine::shared, false, false,
          []() -> std::unique_ptr<Exchange> { throw Error("shared exchange: no room in /dev/shm"); }};
}

TEST(AutomaticEngine, AContenderThatCannotBeMadeLeavesTheContest) {
  const double packed = 0.024, typed = 0.004;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back(refused_shared());
  Watched w(std::move(c));
  // A warm-up, packing and datatypes once, the refusal (this execution
  // packs), then rounds of the two (two: each takes 28 ms).
  const int executions = w.execute_until("datatype", 3 + 1 + 2 * Contest::max_rounds + 1);
  EXPECT_EQ(w.automatic->name(), "datatype") << "after " << executions << " executions";
  EXPECT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::datatype});
  for (int k = 0; k < 2 * 8 + 2; ++k) w.execute();  // watches: the runner-up is packing now
  EXPECT_EQ(w.automatic->name(), "datatype");
}

TEST(AutomaticEngine, AWisdomsEngineThatCannotBeMadeHereLeavesPacking) {
  const double packed = 0.001, typed = 0.001;
  std::vector<Contender> c = contenders(packed, typed);
  c.pop_back();  // packing and the shared window only
  c.push_back(refused_shared());
  Watched w(std::move(c), ExchangeEngine::shared);
  EXPECT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "alltoallv");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::alltoallv}) << "the wisdom learns it";
  EXPECT_TRUE(w.buffers.held.empty()) << "packing keeps both buffers";
  for (int k = 0; k < 2 * 8 + 2; ++k) w.execute();
  EXPECT_EQ(w.automatic->name(), "alltoallv");
}

}  // namespace
}  // namespace distarray::detail
