// The automatic engine keeps watching its choice: fake engines that take a
// set time, one made slow after the choice; the automatic engine measures
// again within a window and a round of trials and switches, takes back the
// buffers it freed, tells the wisdom, and leaves a choice that keeps up
// alone; of three contenders it keeps the fastest.  At every rank count of test_exchange_mpi.

#include "exchange/exchange.hpp"  // redist/src: the engines' interface

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace distarray::detail {
namespace {

/// An engine whose executions take `*seconds`, spent inside start.
class TimedEngine final : public Exchange {
 public:
  TimedEngine(std::string name, const double* seconds) : name_(std::move(name)), seconds_(seconds) {}
  void start(const Blocks&, PlanReport&) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(*seconds_));
  }
  bool test(const Blocks&, PlanReport&) override { return true; }
  void wait(const Blocks&, PlanReport&) override {}
  std::string name() const override { return name_; }

 private:
  std::string name_;
  const double* seconds_;
};

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

/// Packing and datatypes (the send side typed), timed by `packed` and `typed`.
std::vector<Contender> contenders(const double& packed, const double& typed) {
  std::vector<Contender> c;
  c.push_back({std::make_unique<TimedEngine>("alltoallv", &packed), ExchangeEngine::alltoallv, true, true});
  c.push_back({std::make_unique<TimedEngine>("datatype", &typed), ExchangeEngine::datatype, false, true});
  return c;
}

TEST(AutomaticEngine, SwitchesWhenItsChoiceFallsBehind) {
  const StepShape shape{MPI_COMM_WORLD, 0, 0, 1, sizeof(double), 1 << 30, {}, {}};
  HeldBuffers buffers;
  std::vector<ExchangeEngine> decisions;
  double packed = 0.02, typed = 0.002;  // seconds per execution
  const auto automatic = make_automatic_exchange(shape, buffers, contenders(packed, typed),
                                                 [&](ExchangeEngine e) { decisions.push_back(e); });
  PlanReport report;
  const auto execute = [&] {
    automatic->start({}, report);
    automatic->wait({}, report);
  };
  for (int k = 0; k < 5; ++k) execute();  // a warm-up, then each engine twice
  ASSERT_TRUE(automatic->settled());
  EXPECT_EQ(automatic->name(), "datatype");
  EXPECT_EQ(decisions, std::vector{ExchangeEngine::datatype});
  ASSERT_EQ(buffers.held.size(), 1u);
  EXPECT_EQ(buffers.held[0], std::pair(false, true)) << "the send side moves in place: its buffer freed";

  // Datatypes fall to 3x packing's time (a busy machine): within a window
  // and a round of trials the engine is packing again.
  typed = 0.06;
  int executions = 0;
  while (automatic->name() != "alltoallv" && executions < 8 + 1 + 4 + 1) {
    execute();
    ++executions;
  }
  EXPECT_EQ(automatic->name(), "alltoallv")
      << "still on the slow engine after " << executions << " executions";
  EXPECT_TRUE(automatic->settled());
  EXPECT_EQ(decisions, (std::vector{ExchangeEngine::datatype, ExchangeEngine::alltoallv}));
  ASSERT_EQ(buffers.held.size(), 2u);
  EXPECT_EQ(buffers.held[1], std::pair(true, true)) << "packing needs its send buffer back";

  // Packing keeps up with the runner-up's time: no more trials.
  for (int k = 0; k < 3 * 8; ++k) {
    execute();
    EXPECT_TRUE(automatic->settled()) << "measuring again at execution " << k;
  }
  EXPECT_EQ(decisions.size(), 2u);
}

TEST(AutomaticEngine, KeepsTheFastestOfThreeAndFreesWhatItDoesNotUse) {
  const StepShape shape{MPI_COMM_WORLD, 0, 0, 1, sizeof(double), 1 << 30, {}, {}};
  HeldBuffers buffers;
  std::vector<ExchangeEngine> decisions;
  const double packed = 0.01, typed = 0.02, shared = 0.003;
  std::vector<Contender> c = contenders(packed, typed);
  c.push_back({std::make_unique<TimedEngine>("shared", &shared), ExchangeEngine::shared, false, false});
  const auto automatic = make_automatic_exchange(shape, buffers, std::move(c),
                                                 [&](ExchangeEngine e) { decisions.push_back(e); });
  PlanReport report;
  for (int k = 0; k < 7; ++k) {  // a warm-up, then each engine twice
    EXPECT_FALSE(automatic->settled()) << "settled after " << k << " executions";
    automatic->start({}, report);
    automatic->wait({}, report);
  }
  ASSERT_TRUE(automatic->settled());
  EXPECT_EQ(automatic->name(), "shared");
  EXPECT_EQ(decisions, std::vector{ExchangeEngine::shared});
  ASSERT_EQ(buffers.held.size(), 1u);
  EXPECT_EQ(buffers.held[0], std::pair(false, false)) << "messages go through the window: both buffers freed";
}

}  // namespace
}  // namespace distarray::detail
