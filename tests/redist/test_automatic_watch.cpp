// The automatic engine keeps watching its choice (fake engines that take a
// set time, one made slow after the choice): it measures again and switches,
// takes back the buffers it freed, tells the wisdom, but not where the
// runner-up, re-tried at once, is as slow (a busy stretch); the others are
// re-tried in turn, the runner-up first, and win where their trials were
// unlucky (one made afresh for it: timed warm); a fall is confirmed by the
// kept engine timed beside the re-trial, and a watch fooled again and again
// waits longer each time; the wisdom's engine is kept without trials but
// watched.  At every rank count of test_exchange_mpi.

#include "exchange/contest.hpp"       // redist/src: the rounds of trials
#include "exchange/watch_window.hpp"  // and the watch
#include "redist/fake_engines.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <vector>

namespace distarray::detail {
namespace {

using namespace fake_engines;

/// Whether a switch took `windows` windows of the kept engine, a re-trial
/// and two rounds of trials of `contenders`: one window more where the
/// seconds watched, summed, round below the re-trial's price they equal.
void expect_windows_before_trials(int executions, int windows, int contenders) {
  const int trials = 1 + Contest::min_rounds * contenders;
  EXPECT_GE(executions, WatchWindow::size * windows + trials) << "a re-trial before its time";
  EXPECT_LE(executions, WatchWindow::size * (windows + 1) + trials) << "a re-trial after its time";
}

TEST(AutomaticEngine, SwitchesWhenItsChoiceFallsBehind) {
  double packed = 0.02, typed = 0.002;  // seconds per execution
  Watched w(contenders(packed, typed));
  for (int k = 0; k < 5; ++k) w.execute();  // a warm-up, then each engine twice
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::datatype});
  EXPECT_EQ(w.buffers.held, (Held{{false, true}})) << "the send side moves in place: its buffer freed";

  // Datatypes fall to 3x packing's time (a busy machine): after a window,
  // packing's re-trial and two rounds of trials the engine is packing again.
  typed = 0.06;
  const int executions = w.execute_until("alltoallv", 8 * 8);
  EXPECT_EQ(w.automatic->name(), "alltoallv")
      << "still on the slow engine after " << executions << " executions";
  EXPECT_EQ(executions, 8 + 1 + 2 * Contest::min_rounds);
  EXPECT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.decisions, (std::vector{ExchangeEngine::datatype, ExchangeEngine::alltoallv}));
  // Lent for the re-trial that confirmed the fall, then back for the trials.
  EXPECT_TRUE(freed_lent_and_held(w.buffers.held)) << ::testing::PrintToString(w.buffers.held);

  // Packing keeps up with the runner-up's time: no more trials.
  for (int k = 0; k < 3 * 8; ++k) {
    w.execute();
    EXPECT_TRUE(w.automatic->settled()) << "measuring again at execution " << k;
  }
  EXPECT_EQ(w.decisions.size(), 2u);
}

TEST(AutomaticEngine, KeepsItsChoiceWhereTheRunnerUpIsSlowedAlike) {
  double packed = 0.02, typed = 0.002;
  Watched w(contenders(packed, typed));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.report.trial_executions, 5);

  // A stretch where every engine runs slow (a busy scheduler): datatypes'
  // window passes 1.5x packing's measured time, but packing, re-tried now,
  // is slower still: no trials, the choice stays.
  typed = 0.04;
  packed = 0.08;
  for (int k = 0; k < 3 * 8; ++k) {
    w.execute();
    ASSERT_TRUE(w.automatic->settled()) << "measuring again at execution " << k;
  }
  EXPECT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::datatype});
  EXPECT_EQ(w.report.trial_executions, 5 + 1) << "the runner-up's one re-trial";
}

TEST(AutomaticEngine, TriesTheRunnerUpAgainAndSwitchesWhereItsTrialsWereUnlucky) {
  double packed = 0.048, typed = 0.016;  // packing slowed while it was measured
  Watched w(contenders(packed, typed));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "datatype");

  // Packing is 4x faster than datatypes now, but its measured time says 3x
  // slower: the watch alone (median against 1.5x that time) never switches.
  // The first re-trial prices packing at no more than twice datatypes' time:
  // due once datatypes have run 32x that (8 windows of 8), then two rounds
  // of trials.
  packed = 0.004;
  const int executions = w.execute_until("alltoallv", 8 * 24);
  EXPECT_EQ(w.automatic->name(), "alltoallv")
      << "still on the slower engine after " << executions << " executions";
  expect_windows_before_trials(executions, 8, 2);
  EXPECT_EQ(w.decisions, (std::vector{ExchangeEngine::datatype, ExchangeEngine::alltoallv}));
  EXPECT_TRUE(freed_lent_and_held(w.buffers.held)) << ::testing::PrintToString(w.buffers.held);
}

TEST(AutomaticEngine, ReTriesANewlyMadeRunnerUpOnlyOnceItIsWarm) {
  // The shared windows lose the trials (30 ms against packing's 20), then
  // take 3 ms; made again for each re-trial, whose first two executions
  // take 60 ms (one per window): timed warm, the re-trial switches.
  const double packed = 0.02, typed = 0.04;
  double warm = 0.03;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back(made_cold(0.06, &warm, 2));
  Watched w(std::move(c));
  for (int k = 0; k < 7; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "alltoallv");
  warm = 0.003;
  const int executions = w.execute_until("shared", 8 * 24);
  EXPECT_EQ(w.automatic->name(), "shared") << "still packing after " << executions << " executions";
  expect_windows_before_trials(executions, 8, 3);  // priced at twice packing's time, as above
}

TEST(AutomaticEngine, ReTriesTheOthersInTurnNotOnlyTheRunnerUp) {
  // The shared windows come third in the trials (60 ms against packing's 20
  // and datatypes' 40), then take 2 ms.  Re-trying only the runner-up
  // (datatypes, still 40) would keep packing for ever.
  const double packed = 0.02, typed = 0.04;
  double shared = 0.06;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back(made_cold(0, &shared, 0));
  Watched w(std::move(c));
  for (int k = 0; k < 7; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "alltoallv");
  shared = 0.002;
  // Datatypes' re-trial after 8 windows (priced at 2x packing's time),
  // the shared window's after 24 more (its trials' cost: 60 ms, and 60
  // for the lead-in before each).  Re-trying only the runner-up never
  // switches.
  const int executions = w.execute_until("shared", 8 * 64);
  EXPECT_EQ(w.automatic->name(), "shared") << "still packing after " << executions << " executions";
  expect_windows_before_trials(executions - 1, 8 + 24, 3);  // (less datatypes' re-trial)
  EXPECT_EQ(w.decisions, (std::vector{ExchangeEngine::alltoallv, ExchangeEngine::shared}));
}

TEST(AutomaticEngine, ComparesItsChoiceTimedBesideTheRunnerUpsReTrial) {
  // Datatypes take 50 ms while watched, 2 otherwise (their window also
  // holds ranks arriving apart, which a trial's lead-in lines up): every
  // window falls behind packing (20 ms), whose re-trial, beside datatypes
  // timed the same way, shows no fall: no more trials.
  const double packed = 0.02;
  Watched* watched = nullptr;
  int trials_before = 0;  // before the execution under way
  std::vector<Contender> c = contenders(packed, packed);
  c[1].exchange = std::make_unique<TimedEngine>("datatype", [&] {
    const bool in_trial = watched->report.trial_executions > trials_before;
    return watched->automatic->settled() && !in_trial ? 0.05 : 0.002;
  });
  Watched w(std::move(c));
  watched = &w;
  for (int k = 0; k < 5 + 4 * (8 + 1); ++k) {
    trials_before = w.report.trial_executions;
    w.execute();
    ASSERT_TRUE(k < 5 || w.automatic->settled()) << "measuring again at execution " << k;
  }
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::datatype});
  EXPECT_EQ(w.report.trial_executions, 5 + 4) << "a re-trial at each window";
}

TEST(AutomaticEngine, WaitsLongerAfterEachFalseAlarm) {
  // Datatypes take 2 ms while measured with the others, and 50 once kept,
  // re-timed beside packing's re-trial (20 ms) included: each window and
  // its re-trial show a fall, each measuring keeps datatypes.  Without
  // patience, the engines were measured again every 13 executions for ever.
  const double packed = 0.02;
  Watched* watched = nullptr;
  std::vector<Contender> c = contenders(packed, packed);
  c[1].exchange =
      std::make_unique<TimedEngine>("datatype", [&] { return watched->automatic->settled() ? 0.05 : 0.002; });
  Watched w(std::move(c));
  watched = &w;
  std::vector<int> decided_at;  // executions before each decision
  for (int k = 0; k < 100 && decided_at.size() < 4; ++k) {
    w.execute();
    if (w.decisions.size() > decided_at.size()) decided_at.push_back(k + 1);
  }
  ASSERT_EQ(decided_at.size(), 4u) << "measured again fewer than three times";
  EXPECT_EQ(w.decisions, std::vector<ExchangeEngine>(4, ExchangeEngine::datatype));
  // A window, its re-trial and 2 rounds of trials; then two windows (each
  // with its re-trial) before the trials, then four.
  const int measuring = 2 * 2;
  EXPECT_EQ(decided_at[1] - decided_at[0], 8 + 1 + measuring);
  EXPECT_EQ(decided_at[2] - decided_at[1], 2 * (8 + 1) + measuring);
  EXPECT_EQ(decided_at[3] - decided_at[2], 4 * (8 + 1) + measuring);
}

TEST(AutomaticEngine, RanksThatLendDifferentBuffersReTryTogether) {
  // Each rank types its own sides: here only even ranks move their send
  // side in place, so only they lend packing its send buffer for a re-trial
  // (the others must not skip the collectives around it: this hung).
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool even = rank % 2 == 0;
  double packed = 0.048, typed = 0.016;
  Watched w(contenders(packed, typed, even));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "datatype");
  packed = 0.004;
  const int executions = w.execute_until("alltoallv", 8 * 24);
  EXPECT_EQ(w.automatic->name(), "alltoallv") << "still on the slower engine after " << executions;
  expect_windows_before_trials(executions, 8, 2);
  if (even)
    EXPECT_TRUE(freed_lent_and_held(w.buffers.held)) << ::testing::PrintToString(w.buffers.held);
  else
    EXPECT_EQ(w.buffers.held, (Held{{true, true}})) << "nothing freed, nothing lent";
}

TEST(AutomaticEngine, KeepsTheWisdomsEngineWithoutTrialsAndWatchesIt) {
  double packed = 0.004, typed = 0.032;  // the wisdom was measured on another day
  Watched w(contenders(packed, typed), ExchangeEngine::datatype);
  EXPECT_TRUE(w.automatic->settled()) << "decided before any execution";
  EXPECT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.buffers.held, (Held{{false, true}}));
  // A window, the runner-up's first trial (unmeasured: due at once), two
  // rounds of trials.
  const int executions = w.execute_until("alltoallv", 4 * 8 + 1 + 2 * Contest::max_rounds);
  EXPECT_EQ(w.automatic->name(), "alltoallv") << "still on the wisdom's engine after " << executions;
  EXPECT_EQ(executions, 8 + 1 + 2 * Contest::min_rounds);
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::alltoallv});
}

}  // namespace
}  // namespace distarray::detail
