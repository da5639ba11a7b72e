// The shared engine's one pass (redist/src/exchange/one_pass.hpp): into
// node-shared destination arrays each element goes straight from its source
// into the receiver's block, against the pattern at 1-7 ranks — transposes
// into both storage orders, ragged blocks, fewer elements than ranks, ranks
// that own nothing, batches, destinations that move between executions —
// and the two-pass path wherever one rank of a node's destination is not
// node-shared, or across emulated nodes for the messages between them.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::ranks_text;
using testing::world_rank;
using Host = Kokkos::HostSpace;  // node-shared blocks live in host memory

/// A plan `from` -> `to` on the shared engine.
template <class DestOrder>
Plan<double, 2, Host, Kokkos::LayoutRight, DestOrder> shared_plan(const Layout<2>& from,
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
  DistArray<double, 2, Host> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Host, DestOrder> shared(to, MPI_COMM_WORLD, node_shared), plain(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  execute_checked(plan, a, shared);
  EXPECT_EQ(plan.report().exchange, "shared");
  EXPECT_FALSE(unpacked(plan.report())) << "one pass: nothing to unpack";
  // One rank's destination in private memory: the node goes through its windows.
  execute_checked(plan, a, world_rank() == 0 ? plain : shared);
  EXPECT_EQ(unpacked(plan.report()), plan.report().messages_received > 0);
  // A second node-shared destination: the tables placed anew, and back.
  DistArray<double, 2, Host, DestOrder> other(to, MPI_COMM_WORLD, node_shared);
  execute_checked(plan, a, other);
  execute_checked(plan, a, shared);
  EXPECT_FALSE(unpacked(plan.report()));
  // Batches go array by array, each in one pass.
  std::vector<DistArray<double, 2, Host>> as{a, a};
  std::vector<DistArray<double, 2, Host, DestOrder>> bs{shared, other};
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
  DistArray<double, 2, Host> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Host, Kokkos::LayoutLeft> b(to, MPI_COMM_WORLD, node_shared);
  testing::fill_pattern(a);
  execute_checked(plan, a, b);
  // Unpacked: only what came from the other node, in one launch.
  EXPECT_LE(plan.report().unpack_launches, 1);
}

}  // namespace
}  // namespace distarray
