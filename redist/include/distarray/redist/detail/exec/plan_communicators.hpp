#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/plan_communicators.hpp is internal: include <distarray/redist.hpp>"
#endif
// The communicators an executor's steps run on, owned by the executor
// (executor.hpp), so that a plan's logic (plan_logic.hpp) and a transform's
// stay copyable values: a copy of this would either share
// them (two executors whose messages, on the same tags, could match each
// other's) or duplicate them (a collective call hidden in a copy), so it is
// move-only.  Built once per Plan or MatrixTransform
// (redist/src/plan/plan_communicators.cpp).

#include <distarray/redist/plan_logic.hpp>

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace distarray::detail {

class PlanCommunicators {
 public:
  PlanCommunicators() = default;  ///< none (a moved-from or not yet built executor's)
  /// Collective over `caller`: its duplicate (MPI_ERRORS_RETURN, so that the
  /// library's messages never meet the caller's) and the agreements' own.
  explicit PlanCommunicators(MPI_Comm caller);
  /// The same, and what `logic`'s steps need besides: indirect steps, the
  /// lines of the source grid; a Kalns-Ni mapping, the renumbered
  /// destination communicator.  Collective over `caller`.
  template <int D>
  PlanCommunicators(MPI_Comm caller, const PlanLogic<D>& logic);
  PlanCommunicators(const PlanCommunicators&) = delete;
  PlanCommunicators& operator=(const PlanCommunicators&) = delete;
  PlanCommunicators(PlanCommunicators&& other) noexcept { take(other); }
  PlanCommunicators& operator=(PlanCommunicators&& other) noexcept;
  ~PlanCommunicators() { free(); }

  /// The duplicate of the caller's communicator.
  MPI_Comm comm() const { return comm_; }
  /// The communicator to create destination arrays on: comm(), renumbered
  /// when the strategy chose a Kalns-Ni processor mapping.
  MPI_Comm destination() const { return destination_ != MPI_COMM_NULL ? destination_ : comm_; }
  /// The communicator `step` runs on (StepLogic::line).
  MPI_Comm of(const StepLogic& step) const { return step.line < 0 ? comm_ : lines_[std::size_t(step.line)]; }
  /// Throws ShapeMismatch when an array's communicator is not the caller's
  /// (nor congruent to it), or a destination's not destination().  Not collective.
  void check_arrays(MPI_Comm source, MPI_Comm destination) const;
  /// The communicator of the agreements before an execution starts
  /// (Executor::agree_to_start): its own, since a step of the execution in
  /// flight may still have collectives pending on comm() on some ranks and
  /// not on others.
  MPI_Comm control() const { return control_; }

 private:
  void take(PlanCommunicators& other) noexcept;
  void free() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm control_ = MPI_COMM_NULL;      // control()
  MPI_Comm destination_ = MPI_COMM_NULL;  // renumbered destinations only
  std::vector<MPI_Comm> lines_;           // indirect: along each dimension; MPI_COMM_NULL off the grid
};

}  // namespace distarray::detail
