// Non-blocking executions (Plan::start, Request): requests of two plans
// interleaved on every engine, the rules a user relies on (one execution in
// flight per plan, destroying a request or plan in flight completes it, a
// request names one execution, plans move) and their errors on every rank.  That every
// method and engine completes under test() alone is checked with the
// oracle in test_plan.cpp.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::expect_throw_on_every_rank;
using testing::local_mismatches;
using testing::ranks_text;

const Index<2> shape{19, 13};  // ragged on every rank count

Layout<2> rows() { return Layout<2>::parse("block,* on " + ranks_text() + "x1", shape); }
Layout<2> columns() { return Layout<2>::parse("*,cyclic(2) on 1x" + ranks_text(), shape); }
Layout<2> scattered() { return Layout<2>::parse("cyclic(3),cyclic on " + ranks_text() + "x1", shape); }

PlanOptions engine(ExchangeEngine e) {
  PlanOptions o;
  o.exchange = e;
  return o;
}

// Two plans in flight at once, progressed in turn and completed in the
// other order: each plan's messages stay its own.
TEST(Request, TwoPlansInterleaved) {
  for (const auto [e, nodes] : {std::pair{ExchangeEngine::alltoallv, 1},
                                {ExchangeEngine::datatype, 1},
                                {ExchangeEngine::p2p, 1},
                                {ExchangeEngine::encoded, 1},
                                {ExchangeEngine::automatic, 1},
                                {ExchangeEngine::shared, 1},
                                {ExchangeEngine::shared, 2}}) {
    SCOPED_TRACE(std::string(to_string(e)) + " on " + std::to_string(nodes) + " node(s)");
    const testing::EmulatedNodes emulated(nodes);
    DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(columns(), MPI_COMM_WORLD);
    DistArray<double, 2> c(columns(), MPI_COMM_WORLD), d(scattered(), MPI_COMM_WORLD);
    testing::fill_pattern(a);
    testing::fill_pattern(c);
    Plan<double, 2> first(rows(), columns(), MPI_COMM_WORLD, engine(e));
    Plan<double, 2> second(columns(), scattered(), MPI_COMM_WORLD, engine(e));
    for (int run = 0; run < 9; ++run) {  // the automatic engine measures on the first seven
      Kokkos::deep_copy(b.local(), -1.0);
      Kokkos::deep_copy(d.local(), -1.0);
      Request one = first.start(a, b);
      Request two = second.start(c, d);
      for (int i = 0; i < 3; ++i) {
        two.test();
        one.test();
      }
      two.wait();
      one.wait();
      ASSERT_EQ(local_mismatches(b), 0) << "execution " << run;
      ASSERT_EQ(local_mismatches(d), 0) << "execution " << run;
    }
  }
}

TEST(Request, OneExecutionInFlightPerPlan) {
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(columns(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 2> plan(rows(), columns(), MPI_COMM_WORLD, engine(ExchangeEngine::p2p));
  Request request = plan.start(a, b);
  expect_throw_on_every_rank([&] { (void)plan.start(a, b); }, "in flight");
  expect_throw_on_every_rank([&] { plan.execute(a, b); }, "in flight");
  request.wait();
  EXPECT_EQ(local_mismatches(b), 0);
  EXPECT_EQ(plan.report().executions, 1);
  plan.execute(a, b);  // and the plan goes on
  EXPECT_EQ(local_mismatches(b), 0);
}

TEST(Request, ARequestNamesOneExecution) {
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(columns(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 2> plan(rows(), columns(), MPI_COMM_WORLD, engine(ExchangeEngine::alltoallv));
  Request earlier = plan.start(a, b);
  earlier.wait();
  EXPECT_TRUE(earlier.done());
  Request later = plan.start(a, b);
  EXPECT_TRUE(earlier.done());  // the later execution is not the earlier request's
  EXPECT_TRUE(earlier.test());
  later.wait();
  EXPECT_EQ(local_mismatches(b), 0);
  Request nothing;
  EXPECT_TRUE(nothing.done());
  nothing.wait();
  // Moving a request moves the execution it names.
  Request moved = plan.start(a, b);
  Request target = std::move(moved);
  EXPECT_TRUE(moved.done());
  target.wait();
  EXPECT_EQ(plan.report().executions, 3);
}

TEST(Request, DestroyingARequestInFlightCompletesIt) {
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(columns(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 2> plan(rows(), columns(), MPI_COMM_WORLD, engine(ExchangeEngine::encoded));
  { Request dropped = plan.start(a, b); }
  EXPECT_EQ(local_mismatches(b), 0);
  EXPECT_EQ(plan.report().executions, 1);
  Kokkos::deep_copy(b.local(), -1.0);
  Request first = plan.start(a, b);
  first = Request();  // assigning over a request in flight completes it too
  EXPECT_EQ(local_mismatches(b), 0);
}

TEST(Request, DestroyingAPlanInFlightCompletesItsExecution) {
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(scattered(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (RedistMethod m : {RedistMethod::direct, RedistMethod::indirect}) {  // one step, two
    Kokkos::deep_copy(b.local(), -1.0);
    Request outlives;
    {
      PlanOptions o;
      o.method = m;
      auto plan = std::make_optional<Plan<double, 2>>(rows(), scattered(), MPI_COMM_WORLD, o);
      outlives = plan->start(a, b);
    }
    EXPECT_TRUE(outlives.done());
    outlives.wait();  // the plan is gone: nothing to do
    EXPECT_EQ(local_mismatches(b), 0) << to_string(m);
  }
}

// Plans move (no callback or pointer refers back to the plan object): a
// plan moved into a vector, one moved while its execution is in flight, and
// one assigned over another (whose steps are completed and freed first) all
// execute correctly; a request of the moved plan still completes its execution.
TEST(Request, PlansMove) {
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(scattered(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (RedistMethod m : {RedistMethod::direct, RedistMethod::indirect}) {  // one step, two
    SCOPED_TRACE(to_string(m));
    PlanOptions o;
    o.method = m;
    std::vector<Plan<double, 2>> plans;
    plans.emplace_back(rows(), scattered(), MPI_COMM_WORLD, o);
    Kokkos::deep_copy(b.local(), -1.0);
    Request request = plans[0].start(a, b);
    Plan<double, 2> moved(std::move(plans[0]));
    request.wait();
    EXPECT_EQ(local_mismatches(b), 0);
    Kokkos::deep_copy(b.local(), -1.0);
    moved.execute(a, b);
    EXPECT_EQ(local_mismatches(b), 0);
    EXPECT_EQ(moved.report().executions, 2);
    Plan<double, 2> other(rows(), columns(), MPI_COMM_WORLD, engine(ExchangeEngine::p2p));
    DistArray<double, 2> c(columns(), MPI_COMM_WORLD);
    Request pending = other.start(a, c);
    other = std::move(moved);  // completes `other`'s execution before freeing it
    EXPECT_TRUE(pending.done());
    EXPECT_EQ(local_mismatches(c), 0);
    Kokkos::deep_copy(b.local(), -1.0);
    other.execute(a, b);
    EXPECT_EQ(local_mismatches(b), 0);
  }
}

// The packs and unpacks of an execution run on the instance the caller
// passes (here a copy of the default one; on a GPU, a stream's).
TEST(Request, RunsOnTheGivenInstance) {
  using Exec = Plan<double, 2>::execution_space;
  DistArray<double, 2> a(rows(), MPI_COMM_WORLD), b(scattered(), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (RedistMethod m : {RedistMethod::direct, RedistMethod::indirect}) {
    PlanOptions o;
    o.method = m;
    Plan<double, 2> plan(rows(), scattered(), MPI_COMM_WORLD, o);
    Kokkos::deep_copy(b.local(), -1.0);
    const Exec exec;
    Request request = plan.start(a, b, exec);
    request.wait();
    EXPECT_EQ(local_mismatches(b), 0) << to_string(m);
  }
}

}  // namespace
}  // namespace distarray
