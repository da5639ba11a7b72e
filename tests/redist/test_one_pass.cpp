// The shared engine's one pass (redist/src/exchange/one_pass.hpp): into
// node-shared destination arrays each element goes straight from its source
// into the receiver's block, against the pattern at 1-7 ranks — transposes
// into both storage orders, ragged blocks, fewer elements than ranks, ranks
// that own nothing, batches, destinations that move between executions —
// and the two-pass path wherever one rank of a node's destination is not
// node-shared, or across emulated nodes for the messages between them;
// MatrixTransform's random cases (scaling, padding, windows) into B in
// node-shared memory.

#include <distarray/redist/matrix_transform.hpp>
#include <distarray/redist/plan.hpp>

#include "mpi/matrix_cases.hpp"
#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::ranks_text;
using testing::world_rank;
// Host memory, or a GPU's (its node-shared blocks opened through CUDA or HIP IPC).
using Space = Kokkos::DefaultExecutionSpace::memory_space;

/// A plan `from` -> `to` on the shared engine.
template <class DestOrder>
Plan<double, 2, Space, Kokkos::LayoutRight, DestOrder> shared_plan(const Layout<2>& from,
                                                                   const Layout<2>& to) {
  PlanOptions options;
  options.method = RedistMethod::direct;
  options.exchange = ExchangeEngine::shared;
  return {from, to, MPI_COMM_WORLD, options};
}

/// Executes `plan` into `b` (this rank's choice of destination) three times,
/// each into a block set to -1 first; every element checked each time.
template <class Plan, class A, class B>
void execute_checked(Plan& plan, const A& a, B& b) {
  for (int k = 0; k < 3; ++k) {
    Kokkos::deep_copy(b.local(), -1.0);
    plan.execute(a, b);
    EXPECT_EQ(testing::local_mismatches(b), 0) << "execution " << k;
  }
}

/// Whether the last execution went in one pass on this rank: no unpack
/// where every message this rank received came from its node.
bool unpacked(const PlanReport& r) { return r.unpack_launches > 0; }

template <class DestOrder>
void one_pass_case(const std::string& from_text, const std::string& to_text, const Index<2>& shape) {
  SCOPED_TRACE(from_text + " -> " + to_text + ", " + std::to_string(shape[0]) + "x" +
               std::to_string(shape[1]) +
               (std::is_same_v<DestOrder, Kokkos::LayoutLeft> ? ", column-major" : ", row-major"));
  const auto from = Layout<2>::parse(from_text, shape), to = Layout<2>::parse(to_text, shape);
  auto plan = shared_plan<DestOrder>(from, to);
  DistArray<double, 2, Space> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Space, DestOrder> shared(to, MPI_COMM_WORLD, node_shared), plain(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  execute_checked(plan, a, shared);
  EXPECT_EQ(plan.report().exchange, "shared");
  EXPECT_FALSE(unpacked(plan.report())) << "one pass: nothing to unpack";
  // One rank's destination in private memory: the node goes through its windows.
  execute_checked(plan, a, world_rank() == 0 ? plain : shared);
  EXPECT_EQ(unpacked(plan.report()), plan.report().messages_received > 0);
  // A second node-shared destination: the tables placed anew, and back.
  DistArray<double, 2, Space, DestOrder> other(to, MPI_COMM_WORLD, node_shared);
  execute_checked(plan, a, other);
  execute_checked(plan, a, shared);
  EXPECT_FALSE(unpacked(plan.report()));
  // Batches go array by array, each in one pass.
  std::vector<DistArray<double, 2, Space>> as{a, a};
  std::vector<DistArray<double, 2, Space, DestOrder>> bs{shared, other};
  for (auto& b : bs) Kokkos::deep_copy(b.local(), -1.0);
  plan.execute(std::span(as), std::span(bs));
  for (const auto& b : bs) EXPECT_EQ(testing::local_mismatches(b), 0) << "batch";
}

TEST(OnePass, IntoNodeSharedDestinationsAgainstThePattern) {
  const std::string p = ranks_text();
  for (const Index<2>& shape : {Index<2>{67, 45}, Index<2>{3, 2}, Index<2>{256, 129}}) {
    one_pass_case<Kokkos::LayoutRight>("block,* on " + p + "x1", "*,block on 1x" + p, shape);
    one_pass_case<Kokkos::LayoutLeft>("block,* on " + p + "x1", "*,block on 1x" + p, shape);
    one_pass_case<Kokkos::LayoutRight>("cyclic(4),* on " + p + "x1", "*,cyclic(3) on 1x" + p, shape);
    one_pass_case<Kokkos::LayoutLeft>("cyclic(4),* on " + p + "x1", "*,cyclic(3) on 1x" + p, shape);
  }
  // Ranks that own nothing: a source on one rank, a destination on two.
  if (testing::world_size() < 2) return;
  one_pass_case<Kokkos::LayoutLeft>("block,* on 1x1", "*,block on 1x2", {33, 17});
  one_pass_case<Kokkos::LayoutRight>("cyclic(2),cyclic(3) on 2x1", "block,* on 1x1", {33, 17});
}

TEST(OnePass, WithinEachEmulatedNodeAndByMpiBetween) {
  const testing::EmulatedNodes two(2);
  const std::string p = ranks_text();
  const Index<2> shape{67, 45};
  const auto from = Layout<2>::parse("cyclic(4),* on " + p + "x1", shape);
  const auto to = Layout<2>::parse("*,cyclic(3) on 1x" + p, shape);
  auto plan = shared_plan<Kokkos::LayoutLeft>(from, to);
  DistArray<double, 2, Space> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Space, Kokkos::LayoutLeft> b(to, MPI_COMM_WORLD, node_shared);
  testing::fill_pattern(a);
  execute_checked(plan, a, b);
  // Unpacked: only what came from the other node, in one launch.
  EXPECT_LE(plan.report().unpack_launches, 1);
}

/// Random transforms B = alpha*op(A) + beta*B (matrix_cases.hpp: random
/// windows, ranks that hold nothing, padded local arrays) on the shared
/// engine into B's local arrays in node-shared memory.
template <class T>
void transforms_into_node_shared_b(std::mt19937& rng, int cases, int pairs, bool one_node) {
  const T scalars[] = {T(0), T(1), T(-1.5), testing::value_of<T>(1, 2, 3)};
  const auto pick = [&](int hi) { return std::uniform_int_distribution<int>(0, hi)(rng); };
  PlanOptions options;
  options.exchange = ExchangeEngine::shared;
  for (int k = 0; k < cases; ++k) {
    const auto c = testing::draw_case<T>(rng, MatrixOp(pick(2)), scalars[pick(3)], scalars[pick(3)]);
    MatrixTransform<T, Space> t(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD,
                                MatrixExecutions::any, options);
    const std::string what = "case " + std::to_string(k) + ", " + testing::describe(c);
    EXPECT_EQ(testing::wrong_elements(c, t, what, pairs, true), 0) << what;
    if (one_node) EXPECT_EQ(t.report().unpack_launches, 0) << what << ": one pass, nothing to unpack";
  }
}

TEST(OnePass, MatrixTransformsIntoNodeSharedB) {
  std::mt19937 rng(20261130);  // the same cases on every rank
  transforms_into_node_shared_b<double>(rng, 30, 1, true);
  transforms_into_node_shared_b<std::complex<float>>(rng, 10, 2, true);
  const testing::EmulatedNodes two(2);  // one pass within each, MPI between
  transforms_into_node_shared_b<double>(rng, 20, 1, false);
}

}  // namespace
}  // namespace distarray
