#pragma once
// The automatic engine's contest (automatic.cpp): the engines it measures,
// each one's best time and cost (slowest rank), the one it keeps, and the
// runner-up.  A contender that cannot be made here leaves the contest.

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

  Contest(MPI_Comm comm, std::vector<Contender> contenders)
      : comm_(comm),
        contenders_(std::move(contenders)),
        best_(contenders_.size(), unmeasured),
        cost_(contenders_.size(), 0) {}

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
      if (chosen_ > k) --chosen_;
      return false;
    }
  }

  /// Runs contender k's execution, start to end; its seconds.
  double run(std::size_t k, const Blocks& blocks, PlanReport& report) {
    const double started = MPI_Wtime();
    contenders_[k].exchange->start(blocks, report);
    contenders_[k].exchange->wait(blocks, report);
    return MPI_Wtime() - started;
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

  /// Times and costs: each one's maximum over the step's ranks (collective).
  void agree_on_times() {
    for (std::vector<double>* v : {&best_, &cost_})
      DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, v->data(), int(v->size()), MPI_DOUBLE, MPI_MAX, comm_));
  }

 private:
  MPI_Comm comm_;
  std::vector<Contender> contenders_;  // packing first
  std::vector<double> best_;           // each one's best time
  std::vector<double> cost_;           // each one's last trial, making and buffers included
  std::size_t chosen_ = 0;
};

}  // namespace distarray::detail
