// MatrixTransform's executions on a plan's machinery: batches of k pairs
// against the element oracle (matrix_cases.hpp), refusals of start agreed
// on every rank, a request dropped before wait(), and transforms moved
// (into a vector, over another, while in flight).

#include <distarray/redist/matrix_transform.hpp>

#include "mpi/matrix_cases.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <random>
#include <span>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

/// This rank's local array of `m` holding `inside` in the case's window of B and `outside` elsewhere.
std::vector<double> window_values(const testing::TransformCase<double>& c, const BlockCyclicMatrix& m,
                                  double inside, double outside) {
  return testing::local_array<double>(
      m, world_rank(),
      [&](index_t i, index_t j) {
        const index_t r = i - c.b_at[0], col = j - c.b_at[1];
        return r >= 0 && col >= 0 && r < c.extent[0] && col < c.extent[1] ? inside : outside;
      },
      outside);
}

TEST(MatrixTransform, BatchesOfPairsAgainstTheOracle) {
  std::mt19937 rng(20261129);
  for (int c = 0; c < 40; ++c) testing::run_random_case<double>(rng, c, false, 2 + c % 3);
  for (int c = 0; c < 20; ++c) testing::run_random_case<std::complex<double>>(rng, c, false, 2 + c % 2);
  for (int c = 0; c < 20; ++c) testing::run_random_case<int>(rng, c, true, 2 + c % 3);
  // The encoded engine moves the pairs one after another.
  for (int c = 0; c < 20; ++c)
    testing::run_random_case<double>(rng, c, false, 2 + c % 3, ExchangeEngine::encoded);
}

/// Refusals of start, agreed on every rank; a request dropped before wait()
/// completes its execution.
TEST(MatrixTransform, StartRefusalsAndDroppedRequests) {
  std::mt19937 rng(20261130);
  const auto c = testing::draw_case<double>(rng, MatrixOp::transpose, 2.0, -1.0, 1);
  MatrixTransform<double, Kokkos::HostSpace> t(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD);
  const int rank = world_rank();
  const std::vector<double> a = testing::local_array<double>(
      c.a, rank, [](index_t, index_t) { return 3.0; }, 3.0);
  std::vector<double> b = window_values(c, c.b, 1, 1), b2 = b;
  const double* as[] = {a.data(), a.data()};
  double* bs[] = {b.data(), b2.data()};
  testing::expect_throw_on_every_rank(
      [&] { t.execute(2.0, std::span<const double* const>(as), -1.0, std::span<double* const>(bs, 1)); },
      "2 matrices A but 1 matrices B");
  if (world_size() > 1)
    testing::expect_throw_on_every_rank(
        [&] {
          const std::size_t k = rank == 0 ? 1 : 2;  // one rank passes fewer pairs
          t.execute(2.0, std::span<const double* const>(as, k), -1.0, std::span<double* const>(bs, k));
        },
        "ranks disagree on the number of matrix pairs");
  if (world_size() > 1)  // B = beta*B on rank 0 alone would leave the others waiting for its messages
    testing::expect_throw_on_every_rank([&] { t.execute(rank == 0 ? 0.0 : 2.0, a.data(), -1.0, b.data()); },
                                        "none where alpha = 0");
  {
    Request first = t.start(2.0, a.data(), -1.0, b.data());
    testing::expect_throw_on_every_rank([&] { t.execute(2.0, a.data(), -1.0, b2.data()); }, "in flight");
  }                                                     // dropped: completed here
  EXPECT_EQ(b, window_values(c, c.b, 2 * 3.0 - 1, 1));  // B = 2*A^T - B inside the window
  t.execute(1.0, a.data(), 0.0, b2.data());             // the transform is usable again
  EXPECT_EQ(b2, window_values(c, c.b, 3, 1));
  EXPECT_EQ(t.report().executions, 2);
}

/// A transform moved into a vector, over another, and while its execution
/// is in flight still executes right; the request of the moved one completes it.
TEST(MatrixTransform, TransformsMove) {
  using Transform = MatrixTransform<double, Kokkos::HostSpace>;
  std::mt19937 rng(20261131);
  const auto c = testing::draw_case<double>(rng, MatrixOp::transpose, 2.0, -1.0, 1);
  const auto d = testing::draw_case<double>(rng, MatrixOp::none, 2.0, -1.0, 1);
  std::vector<Transform> ts;
  ts.emplace_back(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD);
  ts.emplace_back(d.a, d.a_at, d.b, d.b_at, d.extent, d.op, MPI_COMM_WORLD);  // moves ts[0]
  EXPECT_EQ(testing::wrong_elements(c, ts[0], "moved into a vector"), 0);
  ts[1] = std::move(ts[0]);  // over another: ts[1] is now c's transform
  EXPECT_EQ(testing::wrong_elements(c, ts[1], "assigned over another"), 0);

  const std::vector<double> a = testing::local_array<double>(
      c.a, world_rank(), [](index_t, index_t) { return 3.0; }, 3.0);
  std::vector<double> b = window_values(c, c.b, 1, 1);
  Request request = ts[1].start(2.0, a.data(), -1.0, b.data());
  Transform moved = std::move(ts[1]);  // in flight
  request.wait();
  EXPECT_EQ(b, window_values(c, c.b, 2 * 3.0 - 1, 1));
  moved.execute(1.0, a.data(), 1.0, b.data());  // B = A^T + B
  EXPECT_EQ(b, window_values(c, c.b, 3.0 + 5.0, 1));
}

}  // namespace
}  // namespace distarray
