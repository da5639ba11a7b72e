// A plan or a matrix transform made with different arguments on different
// ranks is refused on every rank (core/src/same_arguments.hpp), naming the
// argument.  Without the check, different exchange options met in mismatched
// collectives (MPI_ERR_TRUNCATE on one rank, the other waiting for ever),
// and different layouts built plans that moved data to the wrong places.
// Each case runs under a watchdog and ends with a barrier every rank must reach.

#include <distarray/redist/matrix_transform.hpp>
#include <distarray/redist/plan.hpp>

#include "mpi/expect_agreed.hpp"
#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace distarray {
namespace {

using testing::expect_agreed;
using testing::first_or;
using testing::world_rank;
using testing::world_size;

TEST(SameArguments, PlansOfDifferentArgumentsAreRefusedOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::string p = std::to_string(world_size());
  const Index<2> shape{13, 11};
  const auto from = Layout<2>::parse("block,* on " + p + "x1", shape);
  const auto to = Layout<2>::parse("*,block on 1x" + p, shape);
  expect_agreed<UsageError>(
      "destination layout",
      [&] {
        Plan<double, 2> plan(from, first_or(to, Layout<2>::parse("*,cyclic on 1x" + p, shape)),
                             MPI_COMM_WORLD);
      },
      "Plan: ranks disagree on the destination layout (this rank: ");
  expect_agreed<UsageError>(
      "shape",
      [&] {
        const Index<2> other{13, 12};
        Plan<double, 2> plan(Layout<2>::parse("block,* on " + p + "x1", first_or(shape, other)),
                             Layout<2>::parse("*,block on 1x" + p, first_or(shape, other)), MPI_COMM_WORLD);
      },
      "ranks disagree on the source layout");
  expect_agreed<UsageError>(
      "element size",
      [&] {
        if (world_rank() == 0)
          Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
        else
          Plan<float, 2> plan(from, to, MPI_COMM_WORLD);
      },
      "ranks disagree on the element size");
  expect_agreed<UsageError>(
      "destination order",
      [&] {
        if (world_rank() == 0)
          Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
        else
          Plan<double, 2, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::LayoutRight,
               Kokkos::LayoutLeft>
              plan(from, to, MPI_COMM_WORLD);
      },
      "ranks disagree on the storage orders");
  PlanOptions p2p, wisdom;
  p2p.exchange = ExchangeEngine::p2p;
  wisdom.wisdom = "/nonexistent/distarray.wisdom";  // (never opened: refused first)
  expect_agreed<UsageError>(
      "exchange engine",
      [&] { Plan<double, 2> plan(from, to, MPI_COMM_WORLD, first_or(p2p, PlanOptions{})); },
      "ranks disagree on the plan options (this rank: method=auto schedule=auto exchange=");
  expect_agreed<UsageError>(
      "wisdom file", [&] { Plan<double, 2> plan(from, to, MPI_COMM_WORLD, first_or(wisdom, PlanOptions{})); },
      "ranks disagree on the wisdom file");
  // The same arguments everywhere still make a plan that moves every element.
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 2>(from, to, MPI_COMM_WORLD, p2p).execute(a, b);
  EXPECT_EQ(testing::local_mismatches(b), 0);
}

TEST(SameArguments, MatrixTransformsOfDifferentArgumentsAreRefusedOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::string p = std::to_string(world_size());
  const auto layout = Layout<2>::parse("cyclic(2),cyclic(3) on 1x" + p, {9, 9});
  // Leading dimensions differ between ranks by their own padding: allowed.
  const BlockCyclicMatrix a = matrix_of(layout, StorageOrder::column_major, 9 + world_rank());
  const BlockCyclicMatrix b = matrix_of(layout, StorageOrder::column_major, 9);
  using Transform = MatrixTransform<double, Kokkos::HostSpace>;
  EXPECT_NO_THROW((Transform(a, {0, 0}, b, {0, 0}, {9, 9}, MatrixOp::transpose, MPI_COMM_WORLD)));
  expect_agreed<UsageError>(
      "op",
      [&] {
        Transform t(a, {0, 0}, b, {0, 0}, {9, 9}, first_or(MatrixOp::transpose, MatrixOp::none),
                    MPI_COMM_WORLD);
      },
      "MatrixTransform: ranks disagree on op (this rank: ");
  expect_agreed<UsageError>(
      "window",
      [&] {
        Transform t(a, {0, 0}, b, first_or(Index<2>{0, 0}, Index<2>{1, 0}), {8, 8}, MatrixOp::none,
                    MPI_COMM_WORLD);
      },
      "ranks disagree on the windows");
  expect_agreed<UsageError>(
      "matrix B",
      [&] {
        const auto other = Layout<2>::parse("cyclic(2),cyclic(2) on 1x" + p, {9, 9});
        Transform t(a, {0, 0}, first_or(b, matrix_of(other, StorageOrder::column_major, 9)), {0, 0}, {9, 9},
                    MatrixOp::none, MPI_COMM_WORLD);
      },
      "ranks disagree on matrix B");
  // The one-off transform with alpha = 0 on rank 0 only: its transform is
  // built for any alpha there and for copies elsewhere (a hang before).
  DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft> x(layout, MPI_COMM_WORLD),
      y(layout, MPI_COMM_WORLD);
  expect_agreed<UsageError>(
      "one-off transform, alpha = 0 on rank 0",
      [&] {
        transform(first_or(0.0, 1.0), MatrixOp::none, x, {0, 0}, 0.0, y, {0, 0}, {9, 9});
      },
      "ranks disagree on the executions");
}

}  // namespace
}  // namespace distarray
