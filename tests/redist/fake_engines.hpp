#pragma once
// Fake engines for the automatic engine's tests (test_automatic_watch.cpp,
// test_automatic_contest.cpp): engines that take a set time, which a test
// may change, on a fake clock that they advance and the automatic engine
// reads (no sleeps: on a loaded machine, ctest -j 2 and several ranks a
// core, a sleep overshot by a scheduler's slice, which once made 1-6 ms
// apart a coin toss), and buffers that record which sides the engine holds.

#include "exchange/exchange.hpp"  // redist/src: the engines' interface

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail::fake_engines {

/// The fake engines' clock, in seconds: it moves only when they run.
inline double& now() {
  static double seconds = 0;
  return seconds;
}

/// An engine whose executions take `seconds()` each, spent inside start;
/// one that `carries` the front end's agreement says so.
class TimedEngine final : public Exchange {
 public:
  TimedEngine(std::string name, std::function<double()> seconds, bool carries = false)
      : name_(std::move(name)), seconds_(std::move(seconds)), carries_(carries) {}
  void start(const Blocks&, PlanReport&) override { now() += seconds_(); }
  bool test(const Blocks&, PlanReport&) override { return true; }
  void wait(const Blocks&, PlanReport&) override {}
  std::string name() const override { return name_; }
  bool carries_agreement() const override { return carries_; }

 private:
  std::string name_;
  std::function<double()> seconds_;
  bool carries_;
};

/// An engine whose messages move on their own once started: its execution
/// ends `seconds` after its start, whatever the caller did between start
/// and wait (where a TimedEngine's wait comes after all of that).
class ProgressingEngine final : public Exchange {
 public:
  ProgressingEngine(std::string name, double seconds) : name_(std::move(name)), seconds_(seconds) {}
  void start(const Blocks&, PlanReport&) override { done_ = now() + seconds_; }
  bool test(const Blocks&, PlanReport&) override { return now() >= done_; }
  void wait(const Blocks&, PlanReport&) override { now() = std::max(now(), done_); }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  double seconds_;
  double done_ = 0;
};

/// An engine whose executions take `*seconds` (which the test may change).
inline std::unique_ptr<Exchange> timed(std::string name, const double* seconds) {
  return std::make_unique<TimedEngine>(std::move(name), [seconds] { return *seconds; });
}

/// A shared-window contender, made at its first trial (and again after
/// being dropped), whose first `warm_ups` executions after each making take
/// `cold` seconds (its windows' first touches) and the others `*warm`.
inline Contender made_cold(double cold, const double* warm, int warm_ups) {
  return {nullptr,
          ExchangeEngine::shared,
          false,
          false,
          [=] {
            return std::make_unique<TimedEngine>(
                "shared", [=, executions = 0]() mutable { return executions++ < warm_ups ? cold : *warm; });
          },
          warm_ups};
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
inline std::vector<Contender> contenders(const double& packed, const double& typed, bool send_typed = true) {
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
            known, [] { return now(); })) {
    now() = 0;  // the same sums of seconds, whichever tests ran before
  }
  /// One execution, as a step runs it: the automatic engine's start, the
  /// message to oneself (`own`, where set) unless the engine ran it, wait.
  void execute() {
    bool own_copied = false;
    const std::function<void()> copy_own = [&] {
      own();
      own_copied = true;
    };
    automatic->start({{}, {}, nullptr, own ? &copy_own : nullptr, agreement_seconds}, report);
    if (own && !own_copied) own();
    automatic->wait({}, report);
  }
  /// Executes until the engine in use is `name`, at most `limit` times; how many ran.
  int execute_until(const std::string& name, int limit) {
    int executions = 0;
    for (; automatic->name() != name && executions < limit; ++executions) execute();
    return executions;
  }

  std::function<void()> own;     // the step's message to oneself
  double agreement_seconds = 0;  // the front end's agreement's, made before each start (Blocks)
  const StepShape shape{MPI_COMM_WORLD, 0, 0, 1, sizeof(double), 1 << 30, {}, {}};
  HeldBuffers buffers;
  std::vector<ExchangeEngine> decisions;
  PlanReport report;
  const std::unique_ptr<Exchange> automatic;
};

using Held = std::vector<std::pair<bool, bool>>;

/// Whether the automatic engine freed the send buffer at the choice, lent
/// it to packing for a re-trial and took it back (more than once where a
/// busy machine spoiled a re-trial), and held it again to measure: {false,
/// true}, then {true, true} and {false, true} in turn, ending {true, true}.
inline bool freed_lent_and_held(const Held& held) {
  if (held.size() < 4 || held.size() % 2 != 0) return false;
  for (std::size_t k = 0; k < held.size(); ++k)
    if (held[k] != std::pair{k % 2 == 1, true}) return false;
  return true;
}

}  // namespace distarray::detail::fake_engines
