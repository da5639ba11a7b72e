// Refusals agreed on every rank while a plan is made: a check that fails on
// some ranks only (a schedule a rank's dimension needs, an allocation)
// throws the same typed error on every rank, and nobody is left waiting in
// a collective (test_execution_refusals.cpp: the refusals of executions).
// Each case runs under a watchdog and ends with a barrier that every rank
// must reach.

#include <distarray/core/detail/collective.hpp>
#include <distarray/redist/plan.hpp>

#include "mpi/expect_agreed.hpp"
#include "mpi/pattern.hpp"
#include "mpi/watchdog.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::expect_agreed;
using testing::world_rank;
using testing::world_size;

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
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  expect_agreed<AllocationError>(
      "node-shared array in device memory",
      [&] { DistArray<double, 1> a(huge, MPI_COMM_WORLD, node_shared); },
      "cannot allocate the node-shared local block of layout");
#else
  expect_agreed<AllocationError>(
      "node-shared device memory in a build without a GPU",
      [] { detail::make_node_shared(MPI_COMM_WORLD, 64, detail::NodeMemory::Where::device); },
      "a node-shared block: this build has no CUDA or HIP IPC");
#endif
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
