// MatrixTransform against the element oracle (matrix_cases.hpp): B =
// alpha*op(A) + beta*B over random windows of random block-cyclic matrices
// (sources other than 0, random rank maps, padded leading dimensions, both
// storage orders, grids smaller than the world so that ranks hold nothing),
// every op, real, complex (std:: and Kokkos::, float and double) and
// integer elements.  Each rank checks every element of its own local array
// of B, padding included, against the global formula.

#include <distarray/redist/matrix_transform.hpp>

#include "mpi/matrix_cases.hpp"
#include "mpi/memory_space.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

TEST(MatrixTransform, RandomWindowsAgainstTheOracle) {
  std::mt19937 rng(20261123);  // the same cases on every rank
  for (int c = 0; c < 150; ++c) testing::run_random_case<double>(rng, c, false);
  for (int c = 0; c < 60; ++c) testing::run_random_case<Kokkos::complex<double>>(rng, c, false);
  for (int c = 0; c < 40; ++c) testing::run_random_case<std::complex<double>>(rng, c, false);
  for (int c = 0; c < 40; ++c) testing::run_random_case<std::complex<float>>(rng, c, false);
  for (int c = 0; c < 40; ++c) testing::run_random_case<Kokkos::complex<float>>(rng, c, false);
  for (int c = 0; c < 60; ++c) testing::run_random_case<int>(rng, c, true);
  for (int c = 0; c < 60; ++c) testing::run_random_case<double>(rng, c, true);
  // The encoded engine: receivers place each message by its header alone.
  for (int c = 0; c < 60; ++c) testing::run_random_case<double>(rng, c, false, 1, ExchangeEngine::encoded);
  for (int c = 0; c < 30; ++c)
    testing::run_random_case<std::complex<float>>(rng, c, false, 1, ExchangeEngine::encoded);
  for (int c = 0; c < 30; ++c) testing::run_random_case<int>(rng, c, true, 1, ExchangeEngine::encoded);
  // The shared engine: senders place each message in the receiver's window.
  for (int c = 0; c < 40; ++c) testing::run_random_case<double>(rng, c, false, 1, ExchangeEngine::shared);
  for (int c = 0; c < 20; ++c)
    testing::run_random_case<std::complex<float>>(rng, c, false, 1, ExchangeEngine::shared);
  // ... on two "nodes": windows within each, MPI between.
  const testing::EmulatedNodes two(2);
  for (int c = 0; c < 30; ++c) testing::run_random_case<double>(rng, c, false, 1, ExchangeEngine::shared);
}

/// Every op with every pair of scalars (a complex alpha and beta included)
/// on windows of at least 1x1; the conjugate transpose conjugates.
template <class T>
void every_op_and_scalar() {
  std::mt19937 rng(20261126);
  const T scalars[] = {T(0), T(1), T(-1.5), testing::value_of<T>(1, 2, 3)};
  for (const MatrixOp op : {MatrixOp::none, MatrixOp::transpose, MatrixOp::conjugate_transpose})
    for (const T& alpha : scalars)
      for (const T& beta : scalars) {
        const auto c = testing::draw_case<T>(rng, op, alpha, beta, 1);
        MatrixTransform<T> t(c.a, c.a_at, c.b, c.b_at, c.extent, op, MPI_COMM_WORLD);
        EXPECT_EQ(testing::wrong_elements(c, t, testing::describe(c)), 0) << testing::describe(c);
      }
  // The smallest case that was wrong for std::complex: A 1x1, B 1x5, op C.
  testing::TransformCase<T> c;
  c.a.axes = {CyclicAxis{1, 1, 1, 0}, CyclicAxis{1, 1, 1, 0}};
  c.b.axes = {CyclicAxis{1, 1, 1, 0}, CyclicAxis{5, 1, 1, 0}};
  c.a.ranks = c.b.ranks = {0};
  c.a.leading = 1, c.b.leading = 5;
  c.extent = {1, 1};
  c.b_at = {0, 2};
  c.op = MatrixOp::conjugate_transpose;
  MatrixTransform<T> t(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD);
  EXPECT_EQ(testing::wrong_elements(c, t, "1x1 into 1x5"), 0);
}

TEST(MatrixTransform, EveryOpAndScalarOnEveryComplexType) {
  every_op_and_scalar<std::complex<double>>();
  every_op_and_scalar<std::complex<float>>();
  every_op_and_scalar<Kokkos::complex<double>>();
  every_op_and_scalar<Kokkos::complex<float>>();
  every_op_and_scalar<double>();
}

TEST(MatrixTransform, CopiesOnlyOnEveryEngine) {
  std::mt19937 rng(20261127);
  for (const ExchangeEngine engine :
       {ExchangeEngine::automatic, ExchangeEngine::alltoallv, ExchangeEngine::datatype, ExchangeEngine::p2p,
        ExchangeEngine::encoded, ExchangeEngine::shared}) {
    PlanOptions options;
    options.exchange = engine;
    for (int k = 0; k < 12; ++k) {
      const auto c = testing::draw_case<double>(rng, MatrixOp(k % 2), 1.0, 0.0, 1);
      MatrixTransform<double> t(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD,
                                MatrixExecutions::copies_only, options);
      const std::string what = std::string(to_string(engine)) + " case " + std::to_string(k);
      EXPECT_EQ(testing::wrong_elements(c, t, what), 0) << what << ": " << testing::describe(c);
      // The report names the engine that moved the data.  Depends on the
      // memory space: where MPI cannot read the arrays, datatypes cannot
      // describe them, and where kernels cannot write host memory, they
      // cannot write a shared window: the step packs for alltoallv instead.
      using Space = MatrixTransform<double>::memory_space;
      const bool falls_back =
          (engine == ExchangeEngine::datatype && !testing::mpi_reads_arrays_in<Space>()) ||
          (engine == ExchangeEngine::shared &&
           !Kokkos::SpaceAccessibility<Space::execution_space, Kokkos::HostSpace>::accessible);
      const std::string named = t.report().exchange;
      const ExchangeEngine moved = falls_back ? ExchangeEngine::alltoallv : engine;
      if (engine == ExchangeEngine::automatic)
        EXPECT_FALSE(named.empty()) << what;
      else
        EXPECT_EQ(named.substr(0, to_string(moved).size()), to_string(moved)) << what << ": " << named;
    }
  }
}

TEST(MatrixTransform, RefusalsOnEveryRank) {
  std::mt19937 rng(20261128);
  const auto c = testing::draw_case<double>(rng, MatrixOp::transpose, 1.0, 0.0, 1);
  PlanOptions datatype;
  datatype.exchange = ExchangeEngine::datatype;
  testing::expect_throw_on_every_rank(
      [&] {
        MatrixTransform<double>(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD,
                                MatrixExecutions::any, datatype);
      },
      "cannot scale");
  MatrixTransform<double> copies(c.a, c.a_at, c.b, c.b_at, c.extent, c.op, MPI_COMM_WORLD,
                                 MatrixExecutions::copies_only);
  std::vector<double> a(1024), b(1024);
  // (Not a structured binding: clang before 16 cannot capture one in a lambda.)
  for (const std::pair<double, double> scalars :
       {std::pair{0.0, 0.0}, std::pair{0.0, 1.0}, std::pair{2.0, 0.0}})
    testing::expect_throw_on_every_rank(
        [&] { copies.execute(scalars.first, a.data(), scalars.second, b.data()); },
        "alpha must be 1 and beta 0");
  using Z = std::complex<double>;
  testing::expect_throw_on_every_rank(
      [&] {
        MatrixTransform<Z>(c.a, c.a_at, c.b, c.b_at, c.extent, MatrixOp::conjugate_transpose, MPI_COMM_WORLD,
                           MatrixExecutions::copies_only);
      },
      "not a plain copy");
}

TEST(MatrixTransform, DistArraysOfAnyLayout) {
  const int size = world_size();
  const Layout<2> from = Layout<2>::parse("cyclic(2),block on " + std::to_string(size) + "x1", {9, 7});
  const Layout<2> to = Layout<2>::parse("block,cyclic(3) on 1x" + std::to_string(size), {7, 9});
  DistArray<double, 2, Kokkos::HostSpace> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft> b(to, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return double(g[0] * 10 + g[1]); });
  b.fill([](const Index<2>& g) { return double(-g[0] - g[1]); });
  // B(1:6, 2:8) = 2*A(1:7, 0:5)^T + B(1:6, 2:8)
  transform(2.0, MatrixOp::transpose, a, {1, 0}, 1.0, b, {1, 2}, {5, 6});
  const std::vector<double> all = b.gather();
  if (world_rank() != 0) return;
  for (index_t i = 0; i < 7; ++i)
    for (index_t j = 0; j < 9; ++j) {
      const bool inside = i >= 1 && i < 6 && j >= 2 && j < 8;
      const double want = double(-i - j) + (inside ? 2.0 * double((1 + j - 2) * 10 + (i - 1)) : 0.0);
      EXPECT_EQ(all[std::size_t(i * 9 + j)], want) << "B(" << i << "," << j << ")";
    }
}

// A one-off transform that does not scale is a copy, which the datatype
// engine moves; one that scales is refused there on every rank.
TEST(MatrixTransform, OneOffCopiesOnTheDatatypeEngine) {
  const int size = world_size();
  const Layout<2> from = Layout<2>::parse("block,cyclic(2) on 1x" + std::to_string(size), {8, 11});
  const Layout<2> to = Layout<2>::parse("cyclic(3),block on " + std::to_string(size) + "x1", {11, 8});
  DistArray<double, 2, Kokkos::HostSpace> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Kokkos::HostSpace> b(to, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return double(g[0] * 100 + g[1]); });
  b.fill([](const Index<2>& g) { return double(-1 - g[0] - g[1]); });
  PlanOptions datatype;
  datatype.exchange = ExchangeEngine::datatype;
  // B(2:9, 1:7) = A(0:6, 3:10)^T
  transform(1.0, MatrixOp::transpose, a, {0, 3}, 0.0, b, {2, 1}, {7, 6}, datatype);
  const std::vector<double> all = b.gather();
  if (world_rank() == 0)
    for (index_t i = 0; i < 11; ++i)
      for (index_t j = 0; j < 8; ++j) {
        const bool inside = i >= 2 && i < 9 && j >= 1 && j < 7;
        const double want = inside ? double((j - 1) * 100 + 3 + (i - 2)) : double(-1 - i - j);
        EXPECT_EQ(all[std::size_t(i * 8 + j)], want) << "B(" << i << "," << j << ")";
      }
  testing::expect_throw_on_every_rank(
      [&] {
        transform(2.0, MatrixOp::transpose, a, {0, 3}, 0.0, b, {2, 1}, {7, 6}, datatype);
      },
      "cannot scale");
}

/// B(1:, 2:) = alpha*A(0:, 1:)^H + beta*B on arrays in the default memory
/// space (device memory on a GPU build: the kernels' complex arithmetic),
/// checked through gather against the formula.
template <class T>
void conjugate_transform_in_default_space() {
  using R = typename testing::complex_parts<T>::real;
  const int size = world_size();
  const Layout<2> from = Layout<2>::parse("cyclic(2),block on " + std::to_string(size) + "x1", {9, 7});
  const Layout<2> to = Layout<2>::parse("block,cyclic(3) on 1x" + std::to_string(size), {7, 9});
  DistArray<T, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return testing::value_of<T>(g[0], g[1], 1); });
  b.fill([](const Index<2>& g) { return testing::value_of<T>(g[0], g[1], 7); });
  const T alpha(R(0.5), R(-2)), beta(R(-1), R(0.25));
  transform(alpha, MatrixOp::conjugate_transpose, a, {0, 1}, beta, b, {1, 2}, {6, 7});
  const std::vector<T> all = b.gather();
  if (world_rank() != 0) return;
  for (index_t i = 0; i < 7; ++i)
    for (index_t j = 0; j < 9; ++j) {
      T want = testing::value_of<T>(i, j, 7);
      if (i >= 1 && j >= 2)
        want = alpha * testing::conjugated(testing::value_of<T>(j - 2, i - 1 + 1, 1)) + beta * want;
      EXPECT_TRUE(testing::same(all[std::size_t(i * 9 + j)], want)) << "B(" << i << "," << j << ")";
    }
}

TEST(MatrixTransform, ConjugateTransposeOfComplexArraysInTheDefaultMemorySpace) {
  conjugate_transform_in_default_space<std::complex<double>>();
  conjugate_transform_in_default_space<std::complex<float>>();
  conjugate_transform_in_default_space<Kokkos::complex<double>>();
  conjugate_transform_in_default_space<Kokkos::complex<float>>();
}

TEST(MatrixTransform, BadWindowsAndMatricesAreRefusedOnEveryRank) {
  BlockCyclicMatrix m;
  m.axes = {CyclicAxis{8, 2, 1, 0}, CyclicAxis{8, 2, world_size(), 0}};
  m.ranks.resize(std::size_t(world_size()));
  std::iota(m.ranks.begin(), m.ranks.end(), 0);
  m.leading = 8;
  EXPECT_THROW((MatrixTransform<double>(m, {0, 0}, m, {4, 0}, {5, 1}, MatrixOp::none, MPI_COMM_WORLD)),
               ShapeMismatch);
  // A bad axis is refused where it is made: a source outside the grid, a
  // block below 1, a negative extent, no processes.
  const std::array<std::array<int, 4>, 4> bad_axes{
      {{8, 2, world_size(), world_size()}, {8, 0, 1, 0}, {-1, 2, 1, 0}, {8, 2, 0, 0}}};
  for (const auto& [extent, block, procs, source] : bad_axes)
    EXPECT_THROW(CyclicAxis(extent, block, procs, source), LayoutError)
        << extent << " " << block << " " << procs;
  BlockCyclicMatrix bad = m;
  if (world_rank() == 0) bad.leading = 1;  // one rank's local array is too narrow
  EXPECT_THROW((MatrixTransform<double>(m, {0, 0}, bad, {0, 0}, {1, 1}, MatrixOp::none, MPI_COMM_WORLD)),
               LayoutError);
}

}  // namespace
}  // namespace distarray
