// The automatic engine keeps watching its choice: fake engines that take a
// set time, one made slow after the choice; the automatic engine measures
// again within a window and a round of trials and switches, takes back the
// buffers it freed, tells the wisdom, and leaves a choice that keeps up
// alone; a runner-up whose trials were unlucky is tried again, once in a
// while, and wins; the wisdom's engine is kept without trials but watched
// too; of three contenders it keeps the fastest; one that cannot be made
// (the shared windows refused) leaves the contest without failing an
// execution; where trials are cheap it takes more rounds of them and the
// median, which an engine that is fast only now and then does not win.  At
// every rank count of test_exchange_mpi.

#include "exchange/contest.hpp"   // redist/src: the rounds of trials
#include "exchange/exchange.hpp"  // redist/src: the engines' interface

#include <distarray/core/error.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace distarray::detail {
namespace {

/// An engine whose executions take `seconds()` each, spent inside start.
class TimedEngine final : public Exchange {
 public:
  TimedEngine(std::string name, std::function<double()> seconds)
      : name_(std::move(name)), seconds_(std::move(seconds)) {}
  void start(const Blocks&, PlanReport&) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds_()));
  }
  bool test(const Blocks&, PlanReport&) override { return true; }
  void wait(const Blocks&, PlanReport&) override {}
  std::string name() const override { return name_; }

 private:
  std::string name_;
  std::function<double()> seconds_;
};

/// An engine whose executions take `*seconds` (which the test may change).
std::unique_ptr<Exchange> timed(std::string name, const double* seconds) {
  return std::make_unique<TimedEngine>(std::move(name), [seconds] { return *seconds; });
}

/// Buffers that record which sides the engine holds; nothing else is used.
class HeldBuffers final : public ExchangeBuffers {
 public:
  std::vector<std::pair<bool, bool>> held;
  void hold_buffers(bool send, bool recv) override { held.emplace_back(send, recv); }

  void pack(const void*) override { unused(); }
  char* send_bytes() override { return unused(); }
  char* recv_bytes() override { return unused(); }
  void unpack(void*) override { unused(); }

 private:
  static char* unused() { throw std::logic_error("the automatic engine reached its engines' buffers"); }
};

/// Packing and datatypes (the send side typed, where `send_typed`), timed by
/// `packed` and `typed`.
std::vector<Contender> contenders(const double& packed, const double& typed, bool send_typed = true) {
  std::vector<Contender> c;
  c.push_back({timed("alltoallv", &packed), ExchangeEngine::alltoallv, true, true});
  c.push_back({timed("datatype", &typed), ExchangeEngine::datatype, !send_typed, true});
  return c;
}

/// An automatic engine over some contenders, the buffers it holds and the
/// decisions it hands on.
struct Watched {
  explicit Watched(std::vector<Contender> contenders, std::optional<ExchangeEngine> known = {})
      : automatic(make_automatic_exchange(
            shape, buffers, std::move(contenders), [this](ExchangeEngine e) { decisions.push_back(e); },
            known)) {}
  void execute() {
    automatic->start({}, report);
    automatic->wait({}, report);
  }
  /// Executes until the engine in use is `name`, at most `limit` times; how many ran.
  int execute_until(const std::string& name, int limit) {
    int executions = 0;
    for (; automatic->name() != name && executions < limit; ++executions) execute();
    return executions;
  }

  const StepShape shape{MPI_COMM_WORLD, 0, 0, 1, sizeof(double), 1 << 30, {}, {}};
  HeldBuffers buffers;
  std::vector<ExchangeEngine> decisions;
  PlanReport report;
  const std::unique_ptr<Exchange> automatic;
};

using Held = std::vector<std::pair<bool, bool>>;

TEST(AutomaticEngine, SwitchesWhenItsChoiceFallsBehind) {
  double packed = 0.02, typed = 0.002;  // seconds per execution
  Watched w(contenders(packed, typed));
  for (int k = 0; k < 5; ++k) w.execute();  // a warm-up, then each engine twice
  ASSERT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::datatype});
  EXPECT_EQ(w.buffers.held, (Held{{false, true}})) << "the send side moves in place: its buffer freed";

  // Datatypes fall to 3x packing's time (a busy machine): within a window
  // and a round of trials the engine is packing again.
  typed = 0.06;
  const int executions = w.execute_until("alltoallv", 8 + 1 + 2 * Contest::max_rounds + 1);
  EXPECT_EQ(w.automatic->name(), "alltoallv")
      << "still on the slow engine after " << executions << " executions";
  EXPECT_TRUE(w.automatic->settled());
  EXPECT_EQ(w.decisions, (std::vector{ExchangeEngine::datatype, ExchangeEngine::alltoallv}));
  EXPECT_EQ(w.buffers.held, (Held{{false, true}, {true, true}})) << "packing needs its send buffer back";

  // Packing keeps up with the runner-up's time: no more trials.
  for (int k = 0; k < 3 * 8; ++k) {
    w.execute();
    EXPECT_TRUE(w.automatic->settled()) << "measuring again at execution " << k;
  }
  EXPECT_EQ(w.decisions.size(), 2u);
}

TEST(AutomaticEngine, TriesTheRunnerUpAgainAndSwitchesWhereItsTrialsWereUnlucky) {
  double packed = 0.012, typed = 0.004;  // packing slowed while it was measured
  Watched w(contenders(packed, typed));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "datatype");

  // Packing is 4x faster than datatypes now, but its measured time says 3x
  // slower: the watch alone (median against 1.5x that time) never switches.
  // The first re-trial prices packing at no more than twice datatypes' time:
  // due once datatypes have run 32x that (8 windows of 8), then a round of trials.
  packed = 0.001;
  const int executions = w.execute_until("alltoallv", 8 * 24);
  EXPECT_EQ(w.automatic->name(), "alltoallv")
      << "still on the slower engine after " << executions << " executions";
  EXPECT_GE(executions, 8 * 4) << "a re-trial before its time";
  EXPECT_EQ(w.decisions, (std::vector{ExchangeEngine::datatype, ExchangeEngine::alltoallv}));
  // Freed at the choice, lent for the re-trial and taken back, held again to measure.
  EXPECT_EQ(w.buffers.held, (Held{{false, true}, {true, true}, {false, true}, {true, true}}));
}

TEST(AutomaticEngine, RanksThatLendDifferentBuffersReTryTogether) {
  // Each rank types its own sides: here only even ranks move their send
  // side in place, so only they lend packing its send buffer for a re-trial
  // (the others must not skip the collectives around it: this hung).
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool even = rank % 2 == 0;
  double packed = 0.012, typed = 0.004;
  Watched w(contenders(packed, typed, even));
  for (int k = 0; k < 5; ++k) w.execute();
  ASSERT_EQ(w.automatic->name(), "datatype");
  packed = 0.001;
  const int executions = w.execute_until("alltoallv", 8 * 24);
  EXPECT_EQ(w.automatic->name(), "alltoallv") << "still on the slower engine after " << executions;
  const Held lent =
      even ? Held{{false, true}, {true, true}, {false, true}, {true, true}} : Held{{true, true}};
  EXPECT_EQ(w.buffers.held, lent);
}

TEST(AutomaticEngine, KeepsTheWisdomsEngineWithoutTrialsAndWatchesIt) {
  double packed = 0.001, typed = 0.008;  // the wisdom was measured on another day
  Watched w(contenders(packed, typed), ExchangeEngine::datatype);
  EXPECT_TRUE(w.automatic->settled()) << "decided before any execution";
  EXPECT_EQ(w.automatic->name(), "datatype");
  EXPECT_EQ(w.buffers.held, (Held{{false, true}}));
  // A window, the runner-up's first trial, a round of trials (and, should a
  // busy machine spoil that trial, another two windows later).
  const int executions = w.execute_until("alltoallv", 4 * 8 + 1 + 2 * Contest::max_rounds);
  EXPECT_EQ(w.automatic->name(), "alltoallv") << "still on the wisdom's engine after " << executions;
  EXPECT_GE(executions, 8);
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::alltoallv});
}

TEST(AutomaticEngine, KeepsTheFastestOfThreeAndFreesWhatItDoesNotUse) {
  const double packed = 0.01, typed = 0.02, shared = 0.003;
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
  // Datatypes take a quarter of packing's time one trial in three and twice
  // it otherwise: the best of two trials would keep them.  Rounds of 2.5-6 ms
  // go on past two (five fill the budget), and the lower median is 4 ms.
  const double packed = 0.002;
  std::vector<Contender> c;
  c.push_back({timed("alltoallv", &packed), ExchangeEngine::alltoallv, true, true});
  c.push_back({std::make_unique<TimedEngine>("datatype",
                                             [k = 0]() mutable {
                                               constexpr double seconds[] = {0.0005, 0.004, 0.004};
                                               return seconds[k++ % 3];
                                             }),
               ExchangeEngine::datatype, false, true});
  Watched w(std::move(c));
  int executions = 0;
  for (; !w.automatic->settled() && executions <= 1 + 2 * Contest::max_rounds; ++executions) w.execute();
  EXPECT_GT(executions, 1 + 2 * Contest::min_rounds) << "no more than the fewest rounds";
  EXPECT_LE(executions, 1 + 2 * Contest::max_rounds);
  EXPECT_EQ(w.automatic->name(), "alltoallv");
  EXPECT_EQ(w.decisions, std::vector{ExchangeEngine::alltoallv});
}

/// The shared window's contender, refused where it is made (no room in /dev/shm).
Contender refused_shared() {
  return {nullptr, ExchangeEngine::shared, false, false,
          []() -> std::unique_ptr<Exchange> { throw Error("shared exchange: no room in /dev/shm"); }};
}

TEST(AutomaticEngine, AContenderThatCannotBeMadeLeavesTheContest) {
  const double packed = 0.006, typed = 0.001;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back(refused_shared());
  Watched w(std::move(c));
  // A warm-up, packing and datatypes once, the refusal (this execution
  // packs), then rounds of the two (three: each round takes 7 ms).
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
