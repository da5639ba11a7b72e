#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/executor.hpp is internal: include <distarray/redist.hpp>"
#endif
// Executor: the typed shell that Plan and MatrixTransform run their steps
// in — the communicators the steps run on, the flight (its steps, report
// and execution in progress) and each step's typed buffers, on which it
// sets, itself, the execution-space instance and the element op of an
// execution: only block pointers cross Step and Flight untyped.  The front
// ends keep what is theirs: a plan its logic and intermediate blocks, a
// transform its logic and the scaling of B alone.

#include <distarray/core/detail/collective.hpp>
#include <distarray/redist/detail/exec/flight.hpp>
#include <distarray/redist/detail/exec/plan_communicators.hpp>
#include <distarray/redist/detail/exec/step.hpp>
#include <distarray/redist/plan_report.hpp>
#include <distarray/redist/request.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

template <class T, class Space>
class Executor {
 public:
  using execution_space = typename Space::execution_space;

  Executor() = default;
  /// Runs `steps` (make_step<T, Space> on `comms`, which it keeps) in turn;
  /// `report` holds what the front end knows (method, schedule), to which
  /// the steps' messages, bytes and peers are added.  `engine`: the
  /// report's name where there are no steps.
  Executor(PlanCommunicators comms, std::vector<TypedStep<T, Space>> steps, PlanReport report,
           std::string engine)
      : comms_(std::move(comms)) {
    std::vector<std::unique_ptr<Step>> owned;
    std::set<std::pair<std::size_t, int>> peers;  // (step, rank)
    for (std::size_t s = 0; s < steps.size(); ++s) {
      steps[s].step->describe(report);
      for (int p : steps[s].step->peers()) peers.insert({s, p});
      buffers_.push_back(steps[s].buffers);
      owned.push_back(std::move(steps[s].step));
    }
    report.peers = int(peers.size());
    report.steps = int(owned.size());
    flight_ = std::make_shared<Flight>(std::move(owned), std::move(report), std::move(engine));
    int agreed[2] = {flight_->settled(), flight_->first_step_runs_on(comms_.control())};
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_LAND, comms_.control()));
    flight_->agree_settled(agreed[0] != 0);
    first_step_on_control_ = agreed[1] != 0;
  }
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  Executor(Executor&&) noexcept = default;
  Executor& operator=(Executor&& other) noexcept {
    if (this != &other) {
      abandon();
      flight_ = std::move(other.flight_);
      buffers_ = std::move(other.buffers_);
      first_step_on_control_ = other.first_step_on_control_;
      comms_ = std::move(other.comms_);  // after the flight that used them
    }
    return *this;
  }
  ~Executor() { abandon(); }

  /// Starts moving in[j] through the steps: targets[s] holds the k blocks
  /// step s writes (the last: the destinations); packs and unpacks run on
  /// `exec` with element op `scaling` (none: a plain copy); `copy` does the
  /// whole of it where there are no steps.  The front end has agreed the start.
  Request start(std::vector<const void*> in, std::vector<std::vector<void*>> targets,
                const execution_space& exec, const std::optional<ScaledCopy<T>>& scaling,
                const std::function<void()>& copy) {
    if (in.size() > 1) flight_->prepare_batch(int(in.size()));  // collective: here, not in test()
    for (StepBuffers<T, Space>* b : buffers_) {
      b->run_on(exec);
      b->scale(scaling);
    }
    std::optional<Agreement> agreement = std::move(carried_);
    carried_.reset();
    flight_->start(std::move(in), std::move(targets), copy,
                   {agreement ? &*agreement : nullptr, std::exchange(agreement_seconds_, 0.0)});
    if (agreement) flight_->agree_settled(!agreement->any());
    return Request(flight_, flight_->execution());
  }

  /// Collective, before an execution of `count` arrays (or pairs, `what`)
  /// starts anything: runs this rank's `checks`, then every rank throws the
  /// same error (the lowest refusing rank's) when any rank's checks threw,
  /// and a UsageError when ranks pass different counts.
  /// The same reduction agrees on whether every rank's steps have settled
  /// (Flight::agree_settled).  Where the first step's engine makes a
  /// synchronisation of every rank anyway (Flight::carries_agreement: the
  /// same answer on every rank), the reduction is made there instead, and
  /// concluded before anything a peer reads is written: by the next start
  /// where this rank starts one array and `starts_steps` (the front end
  /// calls start next with nothing collective before, on every rank that
  /// passed its checks: its steps then run), at once otherwise.  On four
  /// ranks sharing two cores, 256^2 transposes took 16-37% less time so
  /// (docs/performance.md).
  template <class F>
  void agree_to_start(std::size_t count, const std::string& what, F&& checks, bool starts_steps = true) {
    std::exception_ptr refusal = refusal_of(checks);
    const bool refused = refusal != nullptr;
    Agreement agreement(comms_.control(), std::move(refusal), long(count), what, !flight_->settled());
    const bool hands_over = first_step_on_control_ && !refused && count == 1 && starts_steps;
    agreement_seconds_ = 0;
    if (first_step_on_control_ && flight_->carries_agreement()) {
      if (hands_over) {
        carried_.emplace(std::move(agreement));
        return;
      }
      flight_->agree_only(agreement);
    } else {
      const double started = MPI_Wtime();
      agreement.reduce_and_conclude(comms_.control());
      if (hands_over) agreement_seconds_ = MPI_Wtime() - started;  // what a carrying engine saves
    }
    flight_->agree_settled(!agreement.any());
  }

  const PlanCommunicators& comms() const { return comms_; }
  bool in_flight() const { return flight_->in_flight(); }
  std::size_t step_count() const { return flight_->step_count(); }
  const PlanReport& report() const { return flight_->report(); }

  /// Completes what is in flight; nothing starts again.  Before the blocks
  /// the steps use go.
  void abandon() noexcept {
    if (flight_) flight_->abandon();
  }

 private:
  PlanCommunicators comms_;                      // declared first: freed after the flight
  std::shared_ptr<Flight> flight_;               // shared with the requests
  std::vector<StepBuffers<T, Space>*> buffers_;  // each step's, owned by its step
  bool first_step_on_control_ = false;           // (agreed) the first step runs on every rank of control()
  std::optional<Agreement> carried_;             // agree_to_start's, for the start to conclude
  double agreement_seconds_ = 0;                 // or its time, where made here (StartAgreement)
};

}  // namespace distarray::detail
