#pragma once
// The automatic engine's contest (automatic.cpp): the engines it measures,
// each one's time and cost (slowest rank), the one it keeps, and the
// runner-up.  A contender that cannot be made here leaves the contest.
//
// Trials come in rounds, one timed execution of each contender per round,
// each after an untimed lead-in of its own (lead_ins): two
// rounds, and more (up to max_rounds) while they have taken less than
// round_budget_seconds.  A contender's time is the lower median of its
// trials: where an execution takes a fraction of a millisecond the trials
// scatter by more than the engines differ (2 ranks on 2 cores, a 1024^2
// transpose: datatypes 0.50-0.96 ms a trial, the shared window 0.52-0.81;
// best of two kept datatypes in 4 of 6 launches, at 1.2x the window's time),
// and the best of few trials favours the engine that scatters most.

#include "exchange.hpp"

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace distarray::detail {

class Contest {
 public:
  /// A contender's time before any trial (the wisdom's choice skips them):
  /// never beaten, the first re-tried.
  static constexpr double unmeasured = std::numeric_limits<double>::infinity();
  static constexpr int min_rounds = 2;
  static constexpr int max_rounds = PlanReport::most_trial_rounds;
  static constexpr double round_budget_seconds = 0.02;

  Contest(MPI_Comm comm, std::vector<Contender> contenders, Clock clock)
      : comm_(comm),
        clock_(std::move(clock)),
        contenders_(std::move(contenders)),
        best_(contenders_.size(), unmeasured),
        cost_(contenders_.size(), 0),
        trials_(contenders_.size()) {}

  /// Seconds on the contest's clock.
  double now() const { return clock_(); }
  std::size_t size() const { return contenders_.size(); }
  const Contender& operator[](std::size_t k) const { return contenders_[k]; }
  std::size_t index_of(ExchangeEngine e) const {
    return std::size_t(std::find_if(contenders_.begin(), contenders_.end(),
                                    [&](const Contender& c) { return c.engine == e; }) -
                       contenders_.begin());
  }
  std::size_t chosen() const { return chosen_; }
  Exchange& chosen_exchange() const { return *contenders_[chosen_].exchange; }
  double& best(std::size_t k) { return best_[k]; }
  double& cost(std::size_t k) { return cost_[k]; }

  /// Makes contender k where it was dropped (collective: every rank is at
  /// the same point).  One that cannot be made here (the shared windows
  /// refused: no room in /dev/shm, a limit; an Error on every rank) leaves
  /// the contest instead of failing the execution: false then.
  bool made(std::size_t k) {
    if (contenders_[k].exchange) return true;
    try {
      contenders_[k].exchange = contenders_[k].make();
      return true;
    } catch (const MpiError&) {
      throw;  // (one rank's: not agreed)
    } catch (const Error&) {
      contenders_.erase(contenders_.begin() + std::ptrdiff_t(k));
      best_.erase(best_.begin() + std::ptrdiff_t(k));
      cost_.erase(cost_.begin() + std::ptrdiff_t(k));
      trials_.erase(trials_.begin() + std::ptrdiff_t(k));
      if (chosen_ > k) --chosen_;
      return false;
    }
  }

  /// Runs contender k's execution, start to end, with the step's message
  /// to oneself between (as the step runs it); its seconds.
  double run(std::size_t k, const Blocks& blocks, PlanReport& report) {
    const double started = now();
    contenders_[k].exchange->start(blocks, report);
    if (blocks.copy_own) (*blocks.copy_own)();
    contenders_[k].exchange->wait(blocks, report);
    return now() - started;
  }

  /// Untimed executions of contender k before a timed one: its warm-ups
  /// where it was just made, and one at least, so that it is timed after
  /// itself, as it runs once kept (2 ranks, a 256^2 complex transpose into
  /// column-major blocks: alltoallv 0.07 ms right after another engine,
  /// 0.13-0.19 ms after itself; timed after the others, it was kept at 1.3x
  /// the time of the shared engine and 1.4x that of datatypes).
  int lead_ins(std::size_t k, bool fresh) const { return std::max(1, fresh ? contenders_[k].warm_ups : 0); }
  /// A trial of contender k: `lead_ins` untimed executions, then a timed
  /// one, charged its share of the agreement; its seconds.
  double trial(std::size_t k, int lead_ins, const Blocks& blocks, PlanReport& report) {
    for (int e = 0; e < lead_ins; ++e) run(k, blocks, report);
    return run(k, blocks, report) + agreement_charge(k, blocks);
  }

  /// Records a trial of contender k: its execution's seconds, and its cost
  /// (the largest of its trials': the first makes the shared windows).
  void record(std::size_t k, double seconds, double cost) {
    trials_[k].push_back(seconds);
    cost_[k] = trials_[k].size() == 1 ? cost : std::max(cost_[k], cost);
    round_seconds_ += seconds;
  }
  /// Whether `rounds` rounds of trials are enough (collective from
  /// min_rounds on: the ranks agree on the slowest one's seconds).
  bool enough_rounds(int rounds) {
    if (rounds < min_rounds) return false;
    if (rounds >= max_rounds) return true;
    double slowest = round_seconds_;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm_));
    return slowest >= round_budget_seconds;
  }
  /// Each contender's time: the lower median over its trials of the
  /// slowest rank's seconds (collective: every rank ran the same trials);
  /// the trials are forgotten.
  void settle_trials() {
    std::vector<double> all;
    for (const std::vector<double>& t : trials_) all.insert(all.end(), t.begin(), t.end());
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, all.data(), int(all.size()), MPI_DOUBLE, MPI_MAX, comm_));
    auto first = all.begin();
    for (std::size_t k = 0; k < trials_.size(); ++k) {
      const auto last = first + std::ptrdiff_t(trials_[k].size());
      const auto median = first + (last - first - 1) / 2;
      std::nth_element(first, median, last);
      best_[k] = *median;
      first = last;
    }
    forget_trials();
    agree_on_times();
  }
  /// Starts the rounds of trials afresh.
  void forget_trials() {
    for (std::vector<double>& t : trials_) t.clear();
    round_seconds_ = 0;
  }

  /// Keeps contender k; drops the others that hold memory of their own.
  void choose(std::size_t k) {
    chosen_ = k;
    for (std::size_t j = 0; j < contenders_.size(); ++j)
      if (j != k) drop(j);
  }
  /// Drops contender k's engine where it was made for a trial.
  void drop(std::size_t k) {
    if (contenders_[k].make) contenders_[k].exchange.reset();
  }

  /// The fastest by best time.
  std::size_t fastest() const {
    return std::size_t(std::min_element(best_.begin(), best_.end()) - best_.begin());
  }
  /// The fastest but the chosen one, an unmeasured one first (while there
  /// are two or more).
  std::size_t runner_up() const {
    for (std::size_t k = 0; k < best_.size(); ++k)
      if (k != chosen_ && best_[k] == unmeasured) return k;
    std::size_t r = chosen_ == 0 ? 1 : 0;
    for (std::size_t k = 0; k < best_.size(); ++k)
      if (k != chosen_ && best_[k] < best_[r]) r = k;
    return r;
  }

  /// The contender after k but the chosen one, in turn (while there are two
  /// or more; k may be past the end after one left the contest).
  std::size_t other_after(std::size_t k) const {
    std::size_t next = (k + 1) % contenders_.size();
    if (next == chosen_) next = (next + 1) % contenders_.size();
    return next;
  }

  /// Times and costs: each one's maximum over the step's ranks (collective).
  void agree_on_times() {
    for (std::vector<double>* v : {&best_, &cost_})
      DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v->data(), int(v->size()), MPI_DOUBLE, MPI_MAX, comm_));
  }

 private:
  /// A trial's share of the front end's agreement to start, where
  /// contender k would not have saved it by carrying it (4 ranks, a 256^2
  /// transpose into column-major blocks: datatypes 0.060 ms inside the
  /// engine and 0.086 in all, against 0.068 for the shared engine, which
  /// carries it in its barrier): the least reduction seen, its latency.
  /// The rest is ranks arriving apart, which every engine waits for
  /// somewhere, and which on 6 ranks a core swamped the watch (kept out of
  /// it: its median against such a charge had a plan measure for ever).
  double agreement_charge(std::size_t k, const Blocks& blocks) {
    if (blocks.agreement_seconds <= 0 || contenders_[k].exchange->carries_agreement()) return 0;
    least_agreement_ = std::min(least_agreement_, blocks.agreement_seconds);
    return least_agreement_;
  }

  MPI_Comm comm_;
  Clock clock_;
  std::vector<Contender> contenders_;        // packing first
  std::vector<double> best_;                 // each one's time: its trials' lower median, or its re-trial
  std::vector<double> cost_;                 // each one's last trial, making and buffers included
  std::vector<std::vector<double>> trials_;  // each one's trial times in the rounds under way
  double round_seconds_ = 0;                 // this rank's, in those rounds
  double least_agreement_ = unmeasured;      // agreement_charge's
  std::size_t chosen_ = 0;
};

}  // namespace distarray::detail
