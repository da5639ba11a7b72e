#pragma once
// The automatic engine measures on a plan's first executions, in rounds of
// trials whose number depends on how long they take
// (redist/src/exchange/contest.hpp): tests execute until it has settled.

#include <distarray/redist/plan_report.hpp>

namespace distarray::testing {

/// Executions that settle any plan's automatic engine: a warm-up, then at
/// most PlanReport::most_trial_rounds rounds of its (up to three)
/// contenders, then the one whose start every rank agrees has settled.
constexpr int most_measuring_executions = 2 + PlanReport::most_trial_rounds * 3;

/// Whether a plan's automatic engine is still measuring (the same answer on
/// every rank: loops may stop on it).
template <class Plan>
bool measuring(const Plan& plan) {
  return !plan.report().settled;
}

}  // namespace distarray::testing
