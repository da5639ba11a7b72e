// Refusals of executions agreed on every rank: a start while the plan is in
// flight, batches whose counts or arrays differ between ranks, arrays on
// another communicator; ranks outside both grids refuse with the others, and
// the plan goes on afterwards.  Each case runs under a watchdog and ends
// with a barrier that every rank must reach.

#include <distarray/redist/plan.hpp>

#include "mpi/expect_agreed.hpp"
#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::expect_agreed;
using testing::world_rank;
using testing::world_size;

// Plans on one rank (the last) of the world: every other rank is outside
// both grids, has no steps, and completes an execution inside start().
PlanOptions indirect_with(ExchangeEngine engine) {
  PlanOptions o;
  o.method = RedistMethod::indirect;
  o.exchange = engine;
  return o;
}

TEST(Refusals, StartWhileInFlightWithRanksOutsideTheGrid) {
  const std::string last = std::to_string(world_size() - 1);
  const auto from = Layout<1>::parse("cyclic on 1@" + last, {2});
  const auto to = Layout<1>::parse("* on 1@" + last, {2});
  for (const ExchangeEngine engine :
       {ExchangeEngine::p2p, ExchangeEngine::alltoallv, ExchangeEngine::encoded}) {
    const std::string what = "in flight, " + std::string(to_string(engine));
    Plan<double, 1> plan(from, to, MPI_COMM_WORLD, indirect_with(engine));
    DistArray<double, 1> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
    testing::fill_pattern(a);
    Request first = plan.start(a, b);
    expect_agreed<UsageError>(
        what, [&] { (void)plan.start(a, b); }, "in flight");
    expect_agreed<UsageError>(
        what + ", execute", [&] { plan.execute(a, b); }, "in flight");
    first.wait();
    EXPECT_EQ(testing::local_mismatches(b), 0) << what;
    plan.execute(a, b);  // and the plan goes on
    EXPECT_EQ(testing::local_mismatches(b), 0) << what;
  }
}

TEST(Refusals, BatchRefusalsWithRanksOutsideTheGrid) {
  const int n = world_size();
  const std::string last = std::to_string(n - 1);
  const auto from = Layout<2>::parse("*,cyclic on 1x1@" + last, {2, 3});
  const auto to = Layout<2>::parse("block,* on 1x1@" + last, {2, 3});
  {  // not a refusal: the encoded engine moves a batch array by array, ranks outside the grid included
    Plan<double, 2> plan(from, to, MPI_COMM_WORLD, indirect_with(ExchangeEngine::encoded));
    std::vector<DistArray<double, 2>> a, b;
    for (int j = 0; j < 2; ++j) a.emplace_back(from, MPI_COMM_WORLD), b.emplace_back(to, MPI_COMM_WORLD);
    for (auto& x : a) testing::fill_pattern(x);
    plan.execute(std::span(a), std::span(b));
    for (const auto& y : b) EXPECT_EQ(testing::local_mismatches(y), 0) << "k = 2 on encoded";
  }
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD, indirect_with(ExchangeEngine::p2p));
  std::vector<DistArray<double, 2>> a, b;
  for (int j = 0; j < 3; ++j) a.emplace_back(from, MPI_COMM_WORLD), b.emplace_back(to, MPI_COMM_WORLD);
  for (auto& x : a) testing::fill_pattern(x);
  // Counts that differ within one rank's call (rank 0 only).
  const bool first = world_rank() == 0;
  expect_agreed<UsageError>(
      "counts differ on rank 0", [&] { plan.execute(std::span(a), std::span(b).first(first ? 2 : 3)); },
      "3 source arrays but 2 destination arrays");
  // Counts that differ between ranks: rank 0 moves two arrays, the others three.
  if (n > 1)
    expect_agreed<UsageError>(
        "counts differ between ranks",
        [&] { plan.execute(std::span(a).first(first ? 2 : 3), std::span(b).first(first ? 2 : 3)); },
        "ranks disagree on the number of arrays");
  // A wrong source on rank 0 only: outside the grid, unless it is the only rank.
  std::vector<DistArray<double, 2>> wrong;
  for (int j = 0; j < 3; ++j) wrong.emplace_back(to, MPI_COMM_WORLD);
  expect_agreed<ShapeMismatch>(
      "a wrong array outside the grid",
      [&] { plan.execute(std::span(world_rank() == 0 ? wrong : a), std::span(b)); }, "built for");
  plan.execute(std::span(a), std::span(b));  // and the plan goes on
  for (const auto& y : b) EXPECT_EQ(testing::local_mismatches(y), 0);
}

TEST(Refusals, ArraysOnAnotherCommunicator) {
  const int n = world_size();
  const auto from = Layout<1>::parse("block on " + std::to_string(n), {23});
  const auto to = Layout<1>::parse("cyclic on " + std::to_string(n), {23});
  MPI_Comm reversed = MPI_COMM_NULL, duplicate = MPI_COMM_NULL;  // the ranks reordered, and in order
  MPI_Comm_split(MPI_COMM_WORLD, 0, n - 1 - world_rank(), &reversed);
  MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);
  {
    Plan<double, 1> plan(from, to, MPI_COMM_WORLD);
    DistArray<double, 1> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
    if (n > 1) {
      const DistArray<double, 1> other_a(from, reversed);
      DistArray<double, 1> other_b(to, reversed);
      expect_agreed<ShapeMismatch>(
          "source on reordered ranks", [&] { plan.execute(other_a, b); }, "source array on another");
      expect_agreed<ShapeMismatch>(
          "destination on reordered ranks", [&] { plan.execute(a, other_b); },
          "destination array on another communicator");
    }
    DistArray<double, 1> same_ranks(from, duplicate);  // a congruent communicator is the plan's
    testing::fill_pattern(same_ranks);
    plan.execute(same_ranks, b);
    EXPECT_EQ(testing::local_mismatches(b), 0);
  }
  MPI_Comm_free(&duplicate);
  MPI_Comm_free(&reversed);
}

// The shared engine on one node reduces the agreement to start in its own
// barrier, after the ranks that passed their checks have packed into their
// peers' windows (Executor::agree_to_start): a refusal leaves every
// destination as it was (a node-shared one, written in one pass, too), a
// rank still in flight gets its execution whole however often the others
// start, batches agree apart, and the plan goes on.
TEST(Refusals, AgreedInTheSharedEnginesBarrier) {
  const int n = world_size();
  const bool last = world_rank() == n - 1, first = world_rank() == 0;
  const auto from = Layout<2>::parse("block,* on " + std::to_string(n) + "x1", {5, 3});  // ranks own nothing
  const auto to = Layout<2>::parse("*,block on 1x" + std::to_string(n), {5, 3});
  PlanOptions options;
  options.method = RedistMethod::direct;
  options.exchange = ExchangeEngine::shared;
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD, options);
  std::vector<DistArray<double, 2>> a, other;  // other: what a refused start would move
  for (int j = 0; j < 2; ++j) a.emplace_back(from, MPI_COMM_WORLD), other.emplace_back(from, MPI_COMM_WORLD);
  for (auto& x : a) testing::fill_pattern(x);
  for (auto& x : other) Kokkos::deep_copy(x.local(), 7.0);
  DistArray<double, 2> wrong(from, MPI_COMM_WORLD);
  const auto untouched = [](const DistArray<double, 2>& x) {
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x.local());
    return std::all_of(h.data(), h.data() + h.size(), [](double v) { return v == -1.0; });
  };
  std::vector<DistArray<double, 2>> b;
  b.emplace_back(to, MPI_COMM_WORLD, node_shared);
  b.emplace_back(to, MPI_COMM_WORLD);
  for (auto& out : b) {
    const std::string what = out.local().data() == b[0].local().data() ? "node-shared: " : "private: ";
    Kokkos::deep_copy(out.local(), -1.0);
    expect_agreed<ShapeMismatch>(
        what + "a wrong destination on the last rank", [&] { plan.execute(other[0], last ? wrong : out); },
        "built for");
    if (n > 1)
      expect_agreed<UsageError>(
          what + "two arrays on rank 0, one on the others",
          [&] { plan.execute(std::span(other).first(first ? 2 : 1), std::span(b).first(first ? 2 : 1)); },
          "ranks disagree on the number of arrays");
    EXPECT_TRUE(untouched(out)) << what;
    plan.execute(a[0], out);
    EXPECT_EQ(testing::local_mismatches(out), 0) << what;
  }
  Request pending = plan.start(a[0], b[1]);
  if (!first) pending.wait();
  for (int i = 0; i < 3; ++i)  // the other ranks pack `other` each time
    expect_agreed<UsageError>(
        "in flight on rank 0", [&] { plan.execute(other[0], b[0]); }, "in flight");
  pending.wait();
  EXPECT_EQ(testing::local_mismatches(b[1]), 0) << "in flight on rank 0";
  plan.execute(std::span(a), std::span(b));  // a batch: agreed apart, then array by array
  for (const auto& y : b) EXPECT_EQ(testing::local_mismatches(y), 0) << "a batch";
  if (plan.report().steps > 0)  // three executions of one array each; none refused
    EXPECT_EQ(plan.report().agreements_in_exchange, 3) << plan.report().exchange;
}

}  // namespace
}  // namespace distarray
