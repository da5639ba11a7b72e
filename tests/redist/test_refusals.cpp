// Refusals agreed on every rank: a check that fails on some ranks only
// (a schedule a rank's dimension needs, an allocation) throws the same typed
// error on every rank, ranks outside both grids included, and nobody is left
// waiting in a collective.  Each case runs under a watchdog and ends with a
// barrier that every rank must reach.

#include <distarray/core/detail/collective.hpp>
#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/watchdog.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

/// f() must throw E on every rank with a message containing `fragment`.
template <class E, class F>
void expect_agreed(const std::string& what, F&& f, const std::string& fragment) {
  const testing::Watchdog watchdog(what, 120);
  std::string message = "(no exception)";
  try {
    f();
  } catch (const E& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("another exception: ") + e.what();
  }
  EXPECT_NE(message.find(fragment), std::string::npos) << what << ": " << message;
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Refusals, HsuChungForcedWhereItDoesNotApply) {
  const int n = world_size();
  PlanOptions hsu_chung;
  hsu_chung.schedule = ScheduleMethod::hsu_chung;
  // Unequal process counts; the grids leave the last rank out where there are two or more.
  const int used = std::max(1, n - 1);
  const auto from = Layout<2>::parse("cyclic(2),block on " + std::to_string(used) + "x1", {29, 13});
  const auto to = Layout<2>::parse("cyclic(3),block on 1x" + std::to_string(used), {29, 13});
  if (used > 1) {
    expect_agreed<ScheduleError>(
        "plan, unequal counts", [&] { Plan<double, 2> plan(from, to, MPI_COMM_WORLD, hsu_chung); },
        "equal process counts");
    DistArray<double, 2> a(from, MPI_COMM_WORLD);
    expect_agreed<ScheduleError>(
        "redistribute, unequal counts", [&] { redistribute(a, to, hsu_chung); }, "hsu-chung");
  }
  // Block sizes that are not multiples of each other, every method.
  const auto s = Layout<1>::parse("cyclic(2) on " + std::to_string(used), {31});
  const auto t = Layout<1>::parse("cyclic(3) on " + std::to_string(used), {31});
  for (const RedistMethod m : {RedistMethod::direct, RedistMethod::indirect}) {
    hsu_chung.method = m;
    expect_agreed<ScheduleError>(
        "plan, block sizes 2 and 3, " + std::string(to_string(m)),
        [&] { Plan<double, 1> plan(s, t, MPI_COMM_WORLD, hsu_chung); }, "hsu-chung");
  }
  // auto and multiphase find a route the closed forms do apply to: 2 -> 1 -> 3 or 2 -> 6 -> 3.
  for (const RedistMethod m : {RedistMethod::automatic, RedistMethod::multiphase}) {
    hsu_chung.method = m;
    DistArray<double, 1> a(s, MPI_COMM_WORLD), b(t, MPI_COMM_WORLD);
    testing::fill_pattern(a);
    Plan<double, 1> plan(s, t, MPI_COMM_WORLD, hsu_chung);
    EXPECT_GT(plan.chosen().chain.size(), 2u) << plan.explain();
    plan.execute(a, b);
    EXPECT_EQ(testing::local_mismatches(b), 0);
  }
  // A named candidate the schedule cannot build.
  hsu_chung.method = RedistMethod::automatic;
  hsu_chung.candidate = "direct";
  expect_agreed<ScheduleError>(
      "named candidate", [&] { Plan<double, 1> plan(s, t, MPI_COMM_WORLD, hsu_chung); }, "does not apply");
  // Where the closed forms apply, the same options build a working plan.
  hsu_chung.candidate.clear();
  const auto k = Layout<1>::parse("cyclic(6) on " + std::to_string(used), {31});
  DistArray<double, 1> a(s, MPI_COMM_WORLD), b(k, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 1> plan(s, k, MPI_COMM_WORLD, hsu_chung);
  plan.execute(a, b);
  EXPECT_EQ(testing::local_mismatches(b), 0);
}

TEST(Refusals, AnAllocationThatFailsOnOneRankOnly) {
  // Only the last rank owns the block; it asks for 2^60 bytes.
  const std::string last = std::to_string(world_size() - 1);
  const auto huge = Layout<1>::parse("block on 1@" + last, {index_t(1) << 57});
  expect_agreed<AllocationError>(
      "array", [&] { DistArray<double, 1> a(huge, MPI_COMM_WORLD); }, "cannot allocate");
  expect_agreed<AllocationError>(
      "node-shared array",
      [&] { DistArray<double, 1, Kokkos::HostSpace> a(huge, MPI_COMM_WORLD, node_shared); },
      "cannot allocate the node-shared local block of layout");
  // Sizes that overflow are layout errors before any allocation.
  expect_agreed<LayoutError>(
      "2^64 elements",
      [&] {
        Layout<2>::parse("block,* on 1x1", {index_t(1) << 32, index_t(1) << 32});
      },
      "does not fit in 63 bits");
}

TEST(Refusals, AgreedCarriesTheFirstFailingRanksMessageAndClass) {
  const testing::Watchdog watchdog("agreed", 60);
  const int n = world_size();
  try {
    detail::agreed(MPI_COMM_WORLD, [&] {
      if (world_rank() == n - 1) throw LayoutError("rank " + std::to_string(n - 1) + " disagrees");
      if (n > 2 && world_rank() == n - 2) throw ShapeMismatch("a later message");
    });
    ADD_FAILURE() << "no rank threw";
  } catch (const ShapeMismatch& e) {
    EXPECT_GT(n, 2);
    EXPECT_STREQ(e.what(), "a later message");  // rank n-2 is the lowest failing rank
  } catch (const LayoutError& e) {
    EXPECT_LE(n, 2);
    EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(n - 1) + " disagrees");
  }
  EXPECT_EQ(detail::agreed(MPI_COMM_WORLD, [] { return 42; }), 42);
  // A std::bad_alloc becomes an AllocationError on every rank.
  EXPECT_THROW(detail::agreed(MPI_COMM_WORLD,
                              [] {
                                if (world_rank() == 0) throw std::bad_alloc();
                              }),
               AllocationError);
  MPI_Barrier(MPI_COMM_WORLD);
}

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

TEST(Refusals, OneOffRedistributionWithRenumbering) {
  // Ranks 1..n-1 -> ranks 0..n-2: the Kalns-Ni mapping (over the destination
  // grid's ranks) keeps the blocks of ranks 1..n-2 where they are.
  const int n = world_size();
  if (n < 3) GTEST_SKIP() << "needs three ranks";
  const std::string p = std::to_string(n - 1);
  const auto from = Layout<1>::parse("block on " + p + "@1", {61});
  const auto to = Layout<1>::parse("block on " + p, {61});
  PlanOptions options;
  options.allow_renumbering = true;
  options.ts = 1e-5;  // a fixed cost model: a calibration on a loaded machine must not change the choice
  options.te = 1e-9;
  EXPECT_FALSE((Plan<double, 1>(from, to, MPI_COMM_WORLD, options).chosen().destination_ranks.empty()));
  DistArray<double, 1> a(from, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  const auto b = redistribute(a, to, options);
  EXPECT_EQ(testing::local_mismatches(b), 0);
}

}  // namespace
}  // namespace distarray
