// Every ordered pair of a set of 2-D and 3-D layouts, for every method and
// exchange engine, element by element against the global pattern, at the
// rank count this test was launched with: executed, and started then
// completed by test() alone.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/plan_cases.hpp"
#include "mpi/settled.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <thread>
#include <vector>

namespace distarray {
namespace {

using testing::expect_throw_on_every_rank;
using testing::grid2;
using testing::has_multiphase;
using testing::layouts_2d;
using testing::layouts_3d;
using testing::local_mismatches;
using testing::near_square;
using testing::pattern_value;
using testing::Variant;
using testing::variants;
using testing::world_size;

/// Redistributes the pattern from `from` to `to` with every variant that
/// applies, between local blocks stored in the given Kokkos layouts.
template <class T, int D, class SourceOrder = Kokkos::LayoutRight, class DestOrder = Kokkos::LayoutRight>
void check_pair(const std::string& from_text, const std::string& to_text, const Index<D>& shape) {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  const auto from = Layout<D>::parse(from_text, shape);
  const auto to = Layout<D>::parse(to_text, shape);
  DistArray<T, D, Space, SourceOrder> a(from, MPI_COMM_WORLD);
  a.fill([&](const Index<D>& g) { return pattern_value<T, D>(g, shape); });
  for (const Variant& v : variants()) {
    if (v.method == RedistMethod::indirect && !(from.grid() == to.grid())) continue;
    if (v.method == RedistMethod::multiphase && !has_multiphase(from, to)) continue;
    SCOPED_TRACE("'" + from_text + "' -> '" + to_text + "' " + std::string(to_string(v.method)) + " " +
                 std::string(to_string(v.exchange)) + " chunk " + std::to_string(v.max_message_bytes) +
                 " nodes " + std::to_string(v.nodes));
    const testing::EmulatedNodes nodes(v.nodes);
    PlanOptions options;
    options.method = v.method;
    options.exchange = v.exchange;
    options.max_message_bytes = v.max_message_bytes;
    DistArray<T, D, Space, DestOrder> b(to, MPI_COMM_WORLD);
    Plan<T, D, Space, SourceOrder, DestOrder> plan(from, to, MPI_COMM_WORLD, options);
    plan.execute(a, b);
    ASSERT_EQ(local_mismatches(b), 0);
    // Non-blocking: test() alone drives every step to completion.
    Kokkos::deep_copy(b.local(), T(-1));
    Request request = plan.start(a, b);
    while (!request.test()) std::this_thread::yield();  // ranks may outnumber cores: let the others progress
    ASSERT_EQ(local_mismatches(b), 0) << "start, then test() until complete";
  }
}

TEST(Plan, AllPairsOf2DLayouts) {
  for (const Index<2>& shape : {Index<2>{13, 11}, Index<2>{3, 2}}) {
    const auto layouts = layouts_2d(world_size(), shape);
    ASSERT_GE(layouts.size(), 12u);
    for (const auto& from : layouts)
      for (const auto& to : layouts) {
        check_pair<double, 2>(from, to, shape);
        if (HasFatalFailure()) return;
      }
  }
}

TEST(Plan, AllPairsOf3DLayouts) {
  const auto layouts = layouts_3d(world_size());
  ASSERT_GE(layouts.size(), 6u);
  for (const auto& from : layouts)
    for (const auto& to : layouts) {
      check_pair<float, 3>(from, to, {7, 6, 5});
      if (HasFatalFailure()) return;
    }
}

// Column-major local blocks on either side: the unpack or pack becomes a
// tiled local transpose (and the datatype engine uses strided types).
TEST(Plan, ColumnMajorLocalBlocks) {
  using Left = Kokkos::LayoutLeft;
  using Right = Kokkos::LayoutRight;
  // 70 x 45: messages longer than one 32-element tile, with ragged tiles.
  for (const Index<2>& shape : {Index<2>{13, 11}, Index<2>{70, 45}}) {
    const auto layouts = layouts_2d(world_size(), shape);
    for (const auto& from : layouts)
      for (const auto& to : layouts) {
        check_pair<double, 2, Right, Left>(from, to, shape);
        check_pair<double, 2, Left, Right>(from, to, shape);
        check_pair<double, 2, Left, Left>(from, to, shape);
        if (HasFatalFailure()) return;
      }
  }
  const auto layouts = layouts_3d(world_size());
  for (const auto& from : layouts)
    for (const auto& to : layouts) {
      check_pair<float, 3, Right, Left>(from, to, {7, 6, 5});
      check_pair<float, 3, Left, Left>(from, to, {7, 6, 5});
      if (HasFatalFailure()) return;
    }
}

// The automatic engine runs its trials (packed, datatypes, packed) on the
// first executions, then keeps one: every execution must be right, and the
// report names the engine kept.
TEST(Plan, AutomaticEngineIsRightWhileMeasuringAndAfter) {
  const Index<2> shape{13, 11};
  const auto layouts = layouts_2d(world_size(), shape);
  for (const auto& from_text : layouts)
    for (const auto& to_text : layouts) {
      SCOPED_TRACE("'" + from_text + "' -> '" + to_text + "'");
      const auto from = Layout<2>::parse(from_text, shape);
      const auto to = Layout<2>::parse(to_text, shape);
      DistArray<double, 2> a(from, MPI_COMM_WORLD);
      testing::fill_pattern(a);
      Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
      for (int run = 0; run < 7 || (testing::measuring(plan) && run < testing::patient_executions); ++run) {
        DistArray<double, 2> b(to, MPI_COMM_WORLD);
        if (run % 2)
          plan.execute(a, b);
        else
          plan.start(a, b).wait();  // a measuring execution completes inside start
        ASSERT_EQ(local_mismatches(b), 0) << "execution " << run;
      }
      EXPECT_TRUE(plan.report().settled) << plan.report().exchange;
      EXPECT_EQ(plan.report().exchange.find("measuring"), std::string::npos) << plan.report().exchange;
    }
}

// Zero-size dimensions: every rank owns nothing, every method and engine
// must still complete (and agree on it) on every rank.
TEST(Plan, ZeroSizeDimensions) {
  const int p = world_size();
  for (const Index<2>& shape : {Index<2>{0, 7}, Index<2>{6, 0}, Index<2>{0, 0}}) {
    check_pair<double, 2>("block,* on " + grid2(p, 1), "*,cyclic(2) on " + grid2(1, p), shape);
    check_pair<double, 2, Kokkos::LayoutRight, Kokkos::LayoutLeft>("cyclic,block on " + grid2(p, 1),
                                                                   "block,block on 1x1", shape);
    if (HasFatalFailure()) return;
  }
  check_pair<float, 3>("block,block,* on " + grid2(p, 1) + "x1", "*,*,block on 1x1x" + std::to_string(p),
                       {4, 0, 3});
}

TEST(Plan, ComplexAndIntegerElements) {
  const int p = world_size();
  check_pair<std::complex<double>, 2>("block,* on " + grid2(p, 1), "*,block on " + grid2(1, p), {9, 10});
  check_pair<std::int64_t, 1>("cyclic(3) on " + std::to_string(p), "block on " + std::to_string(p), {40});
  check_pair<std::int32_t, 1>("cyclic(6) on " + std::to_string(p), "cyclic(2) on " + std::to_string(p), {41});
}

// Producer and consumer grids on disjoint rank ranges, and overlapping ones
// of different shapes and first ranks.
TEST(Plan, GridToGrid) {
  const int p = world_size();
  const int half = std::max(1, p / 2);
  const auto [a, b] = near_square(half);
  const auto [c, d] = near_square(std::max(1, p - half));
  const int second = p > 1 ? half : 0;  // on one rank both grids hold rank 0
  check_pair<double, 2>("block,cyclic(2) on " + grid2(a, b), "cyclic(3),block on " + grid2(c, d, second),
                        {17, 10});
  check_pair<double, 2>("cyclic(3),block on " + grid2(c, d, second), "block,cyclic(2) on " + grid2(a, b),
                        {17, 10});
  check_pair<double, 2>("cyclic,block on " + grid2(1, p - second, second), "block,cyclic on " + grid2(1, 1),
                        {8, 12});
  if (p >= 7) check_pair<double, 2>("block,block on 2x2", "cyclic(2),cyclic on 3x1@4", {15, 9});
}

using testing::resident_kib;

TEST(Plan, OneHundredExecutionsGiveTheSameResultWithoutGrowth) {
  const int p = world_size();
  const auto from = Layout<2>::parse("block,cyclic(2) on " + grid2(p, 1), {64, 48});
  const auto to = Layout<2>::parse("cyclic(3),block on " + grid2(1, p), {64, 48});
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD), c(from, MPI_COMM_WORLD);
  a.fill([&](const Index<2>& g) { return pattern_value<double, 2>(g, {64, 48}); });
  for (ExchangeEngine e : {ExchangeEngine::alltoallv, ExchangeEngine::p2p, ExchangeEngine::encoded,
                           ExchangeEngine::datatype, ExchangeEngine::shared}) {
    PlanOptions o;
    o.exchange = e;
    Plan<double, 2> forward(from, to, MPI_COMM_WORLD, o), back(to, from, MPI_COMM_WORLD, o);
    long before = 0;
    for (int i = 0; i < 100; ++i) {
      if (i == 10) before = resident_kib();
      Kokkos::deep_copy(b.local(), -1.0);
      forward.execute(a, b);
      ASSERT_EQ(local_mismatches(b), 0) << "execution " << i;
      back.execute(b, c);
      ASSERT_EQ(local_mismatches(c), 0) << "execution " << i;
    }
    if (testing::resident_memory_is_meaningful)
      EXPECT_LE(resident_kib() - before, 256) << "resident memory grew over 90 executions";
    EXPECT_EQ(forward.report().executions, 100);
  }
}

TEST(Plan, BadInputThrowsOnEveryRank) {
  const int p = world_size();
  const auto from = Layout<2>::parse("block,* on " + grid2(p, 1), {8, 6});
  const auto other_shape = Layout<2>::parse("*,block on " + grid2(1, p), {8, 7});
  expect_throw_on_every_rank([&] { Plan<double, 2>(from, other_shape, MPI_COMM_WORLD); },
                             "global shapes differ");
  const auto too_big = Layout<2>::parse("*,block on " + grid2(1, p + 1), {8, 6});
  expect_throw_on_every_rank([&] { Plan<double, 2>(from, too_big, MPI_COMM_WORLD); }, "communicator has");
  PlanOptions indirect;
  indirect.method = RedistMethod::indirect;
  const auto to = Layout<2>::parse("*,block on " + grid2(1, p), {8, 6});
  if (p > 1)  // on one rank every grid is 1x1
    expect_throw_on_every_rank([&] { Plan<double, 2>(from, to, MPI_COMM_WORLD, indirect); },
                               "same process grid");
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  DistArray<double, 2> a(from, MPI_COMM_WORLD), wrong(from, MPI_COMM_WORLD);
  expect_throw_on_every_rank([&] { plan.execute(a, wrong); }, "built for");
  // Only the last rank passes a wrong array: the others must not wait in the
  // exchange; they learn of it in the plan's agreement, with the same message.
  DistArray<double, 2> b(to, MPI_COMM_WORLD);
  const bool last = testing::world_rank() == p - 1;
  expect_throw_on_every_rank([&] { plan.execute(a, last ? wrong : b); }, "built for");
  testing::fill_pattern(a);
  plan.execute(a, b);  // and the plan still works
  EXPECT_EQ(local_mismatches(b), 0);
}

TEST(Plan, ReportsWhatItDid) {
  const int p = world_size();
  const Index<2> shape{4 * p, 3 * p};  // every rank owns some rows and some columns
  const auto from = Layout<2>::parse("block,* on " + grid2(p, 1), shape);
  const auto to = Layout<2>::parse("*,block on " + grid2(1, p), shape);
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  plan.execute(a, b);
  const PlanReport& r = plan.report();
  EXPECT_EQ(r.method, "direct");
  EXPECT_EQ(r.steps, 1);
  EXPECT_EQ(r.messages_sent, p - 1);
  EXPECT_EQ(r.peers, p - 1);
  EXPECT_EQ(r.bytes_sent + r.bytes_local, index_t(sizeof(double)) * a.local_size());
  EXPECT_EQ(r.executions, 1);
  EXPECT_GT(r.pack_seconds + r.exchange_seconds + r.unpack_seconds + r.local_seconds, 0.0);
}

}  // namespace
}  // namespace distarray
