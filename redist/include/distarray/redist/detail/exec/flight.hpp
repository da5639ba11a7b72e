#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/flight.hpp is internal: include <distarray/redist.hpp>"
#endif
// Flight: a plan's steps and report, and its execution in progress.  The
// steps run in order, each started as soon as the one before it has
// completed: inside test() without blocking, or inside wait().  A plan
// holds one Flight and starts every execution on it; Requests (request.hpp)
// name one execution of it.  Nothing in it points back at the plan, so that
// plans move.

#include <distarray/redist/detail/exec/step.hpp>
#include <distarray/redist/plan_report.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace distarray::detail {

class Flight {
 public:
  /// `steps` run in turn; `report` describes them, and each execution adds
  /// its times.  `engine`: the report's engine name where there are no steps.
  Flight(std::vector<std::unique_ptr<Step>> steps, PlanReport report, std::string engine);
  Flight(const Flight&) = delete;
  Flight& operator=(const Flight&) = delete;

  /// Starts execution number execution() + 1 of k = in.size() arrays:
  /// targets[s] holds the k blocks step s writes (the last: the
  /// destinations).  `copy` does the whole of it when there are no steps.
  /// `agreement`: the front end's agreement to start, for the first step
  /// (StartAgreement).
  void start(std::vector<const void*> in, std::vector<std::vector<void*>> targets,
             const std::function<void()>& copy, StartAgreement agreement = {});
  /// Progresses without blocking; true once the execution is complete.
  bool test() { return advance(false); }
  /// Completes the execution.
  void wait() { advance(true); }

  /// Before a start of k > 1 arrays: Step::prepare_batch for every step
  /// (collective over each step's communicator).
  void prepare_batch(int k) {
    for (const auto& step : steps_) step->prepare_batch(k);
  }
  std::size_t step_count() const { return steps_.size(); }
  /// The first step's engine can carry the agreement to start (Step::carries_agreement).
  bool carries_agreement() const { return !steps_.empty() && steps_[0]->carries_agreement(); }
  /// The agreement alone, through the first step's engine (Step::agree_only).
  void agree_only(Agreement& agreement) { steps_[0]->agree_only(agreement); }
  /// The first step runs on `comm`'s ranks (Step::runs_on).
  bool first_step_runs_on(MPI_Comm comm) const { return !steps_.empty() && steps_[0]->runs_on(comm); }
  bool in_flight() const { return in_flight_; }
  const PlanReport& report() const { return report_; }
  /// The steps' exchange engines, e.g. "datatype" or "alltoallv,p2p".
  std::string engine_names() const;
  /// No step of this rank's has an automatic engine measuring.
  bool settled() const;
  /// What the report says from the next completed execution on (before
  /// any execution, at once): `every_rank` is settled() agreed over the
  /// plan's ranks at a start (Executor), since steps on different lines of
  /// ranks settle at different executions and callers steer loops by the
  /// report.  A start without that agreement (detail::AgreedStart) leaves
  /// the report's value as it was.
  void agree_settled(bool every_rank) {
    agreed_settled_ = every_rank;
    if (execution_ == 0) report_.settled = every_rank;
  }
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
  void start_step(std::size_t s, StartAgreement agreement = {});
  void completed();

  std::vector<std::unique_ptr<Step>> steps_;
  PlanReport report_;
  std::string engine_;           // the name where there are no steps
  bool naming_ = false;          // an automatic engine was still measuring at start: name the engines again
  bool agreed_settled_ = false;  // agree_settled()
  std::vector<const void*> in_, from_;       // the sources; what the current step reads
  std::vector<std::vector<void*>> targets_;  // where step s writes: k intermediates, then the destinations
  std::size_t current_ = 0;
  bool in_flight_ = false;
  long execution_ = 0;
};

}  // namespace distarray::detail
