#pragma once
// The automatic engine measures on a plan's first executions, in rounds of
// trials whose number depends on how long they take
// (redist/src/exchange/contest.hpp): tests execute until it has settled.

#include <distarray/redist/plan_report.hpp>

#include <mpi.h>

#include <string>

namespace distarray::testing {

/// Executions that settle any plan's automatic engine: a warm-up, then at
/// most PlanReport::most_trial_rounds rounds of its (up to three)
/// contenders, then the one whose start every rank agrees has settled.
constexpr int most_measuring_executions = 2 + PlanReport::most_trial_rounds * 3;

/// Executions within which any plan settles even on a busy machine, where
/// the watch may measure every engine again soon after the first decision
/// (automatic.cpp): a plan still measuring after them is a defect.
constexpr int patient_executions = 4 * most_measuring_executions;

/// Whether one of this rank's engines of a plan is named "auto(measuring)".
template <class Plan>
bool measuring_here(const Plan& plan) {
  return plan.report().exchange.find("measuring") != std::string::npos;
}

/// Whether a plan's automatic engine is still measuring on some rank: the
/// report not yet settled (the same on every rank), or some rank's engines
/// named "auto(measuring)" (one that a busy machine's watch has made measure
/// again from this execution on).  Collective over MPI_COMM_WORLD, where
/// the tests make their plans: loops may stop on it.
template <class Plan>
bool measuring(const Plan& plan) {
  int measuring = !plan.report().settled || measuring_here(plan);
  MPI_Allreduce(MPI_IN_PLACE, &measuring, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return measuring != 0;
}

}  // namespace distarray::testing
