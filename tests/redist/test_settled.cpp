// PlanReport::settled is the same on every rank (plan_report.hpp): the
// steps of a plan that changes one dimension run on the lines of its grid,
// each line's automatic engine settles when its own trials say so, and a
// loop `while (!plan.report().settled)` must end on every rank at the same
// execution.  It did not: under load, test_plan's loop on it hung at 4
// ranks, half of them planning the next case while the others executed.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/settled.hpp"
#include "mpi/watchdog.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace distarray {
namespace {

/// Whether `mine` is the same on every rank; `apart`: set where ranks'
/// `local` differ.
bool same_on_every_rank(bool mine, bool local, bool& apart) {
  int v[4] = {mine, -int(mine), local, -int(local)};
  MPI_Allreduce(MPI_IN_PLACE, v, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  apart = apart || v[2] != -v[3];
  return v[0] == -v[1];
}

// Indirect: one step on each line of the 2x2 grid, each line cut into two
// emulated nodes (no shared window to measure).  The first line's elements
// alternate between peers on both sides (cyclic to cyclic(2)): not worth
// typing, so it runs alltoallv, settled from the start.  The second line
// owns no row (block(m), m the whole extent): an empty table is worth
// typing, so its automatic engine runs its trials.  The ranks' own steps
// settle apart, deterministically.
TEST(Settled, TheSameOnEveryRankWhereLinesSettleApart) {
  const int p = testing::world_size();
  if (p < 4) GTEST_SKIP() << "two lines of two ranks";
  const Index<2> shape{40, 600};
  const auto from = Layout<2>::parse("block(40),cyclic on 2x2", shape);
  const auto to = Layout<2>::parse("block(40),cyclic(2) on 2x2", shape);
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  PlanOptions options;
  options.method = RedistMethod::indirect;
  const testing::EmulatedNodes nodes(2);
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD, options);
  bool apart = false;  // the ranks' own steps were seen settled apart
  ASSERT_TRUE(same_on_every_rank(plan.report().settled, true, apart)) << "before any execution";
  const testing::Watchdog watchdog("executing until the report says settled", 300);
  int executions = 0;
  while (!plan.report().settled) {
    ASSERT_LT(executions, testing::patient_executions) << plan.report().exchange;
    plan.execute(a, b);
    ++executions;
    ASSERT_TRUE(same_on_every_rank(plan.report().settled, testing::measuring_here(plan), apart))
        << "execution " << executions << ": " << plan.report().exchange;
  }
  EXPECT_EQ(testing::local_mismatches(b), 0);
  EXPECT_GT(executions, 0) << "an automatic engine measures on its first executions";
  EXPECT_TRUE(apart) << "the case no longer has lines that settle apart: " << plan.report().method;
}

}  // namespace
}  // namespace distarray
