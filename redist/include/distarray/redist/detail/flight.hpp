#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/flight.hpp is internal: include <distarray/redist.hpp>"
#endif
// Flight: a plan's execution in progress.  The steps run in order, each
// started as soon as the one before it has completed: inside test() without
// blocking, or inside wait().  A plan owns one Flight and starts every
// execution on it; Requests (request.hpp) name one execution of it.

#include <distarray/redist/detail/step.hpp>
#include <distarray/redist/plan_report.hpp>

#include <functional>
#include <vector>

namespace distarray::detail {

class Flight {
 public:
  /// `steps` (owned by the plan) run in turn; `completed` runs once per
  /// execution, when it completes.
  Flight(std::vector<Step*> steps, PlanReport& report, std::function<void()> completed);
  Flight(const Flight&) = delete;
  Flight& operator=(const Flight&) = delete;

  /// Starts execution number execution() + 1 of k = in.size() arrays:
  /// targets[s] holds the k blocks step s writes (the last: the
  /// destinations).  `copy` does the whole of it when there are no steps.
  /// `exec`: the execution-space instance its packs and unpacks run on
  /// (Step::start), or null.
  void start(std::vector<const void*> in, std::vector<std::vector<void*>> targets, const void* exec,
             const std::function<void()>& copy);
  /// Progresses without blocking; true once the execution is complete.
  bool test() { return advance(false); }
  /// Completes the execution.
  void wait() { advance(true); }

  bool in_flight() const { return in_flight_; }
  /// Executions started so far.
  long execution() const { return execution_; }
  /// For destructors, which cannot throw: completes what is in flight, an
  /// error going to stderr as "distarray: `who` was destroyed while
  /// executing; ...".
  void complete_quietly(const char* who) noexcept;
  /// The plan is going away: completes what is in flight
  /// (complete_quietly), and nothing is started again.
  void abandon() noexcept;

 private:
  bool advance(bool block);
  /// Runs f; if it throws, the execution is no longer in flight.
  template <class F>
  void grounded_on_error(F&& f);
  void start_step(std::size_t s);

  std::vector<Step*> steps_;
  PlanReport& report_;
  std::function<void()> completed_;
  std::vector<const void*> in_, from_;       // the sources; what the current step reads
  std::vector<std::vector<void*>> targets_;  // where step s writes: k stage blocks, then the destinations
  const void* exec_ = nullptr;
  std::size_t current_ = 0;
  bool in_flight_ = false;
  long execution_ = 0;
};

}  // namespace distarray::detail
