// MatrixTransform against the element oracle: B = alpha*op(A) + beta*B over
// random windows of random block-cyclic matrices (sources other than 0,
// random rank maps, padded leading dimensions, both storage orders, grids
// smaller than the world so that ranks hold nothing), every op, real,
// complex and integer elements.  Each rank checks every element of its own
// local array of B, padding included, against the global formula.

#include <distarray/redist/matrix_transform.hpp>

#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;
using Complex = Kokkos::complex<double>;

template <class T>
T value_of(index_t i, index_t j, int salt) {
  const double v = double(i * 37 + j * 11 + salt) * 0.25 - 40;
  if constexpr (std::is_same_v<T, Complex>)
    return Complex(v, double(i - 2 * j + salt) * 0.5);
  else
    return T(v);
}

template <class T>
bool same(const T& x, const T& y) {
  if constexpr (std::is_same_v<T, Complex>)
    return same(x.real(), y.real()) && same(x.imag(), y.imag());
  else if constexpr (std::is_floating_point_v<T>)
    return (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= 1e-12 * (1 + std::abs(y));
  else
    return x == y;
}

/// A random matrix on a random subset of the world's ranks.
BlockCyclicMatrix random_matrix(std::mt19937& rng, int rank) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  BlockCyclicMatrix m;
  const int size = world_size();
  const int p = pick(1, size), q = pick(1, size / p);
  for (int d = 0; d < 2; ++d)
    m.axes[std::size_t(d)] = {pick(0, 14), pick(1, 5), d == 0 ? p : q, pick(0, (d == 0 ? p : q) - 1)};
  std::vector<int> ranks(static_cast<std::size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), rng);
  m.ranks.assign(ranks.begin(), ranks.begin() + p * q);
  m.order = pick(0, 1) ? StorageOrder::column_major : StorageOrder::row_major;
  const Index<2> local = m.local_extents(rank);
  const index_t inner = m.order == StorageOrder::column_major ? local[0] : local[1];
  m.leading = std::max<index_t>(inner, 1) + pick(0, 2);  // the same draws on every rank
  return m;
}

/// This rank's local array of m, elements f(global row, column), padding `pad`.
template <class T, class F>
std::vector<T> local_array(const BlockCyclicMatrix& m, int rank, F&& f, T pad) {
  const Index<2> local = m.local_extents(rank);
  const index_t outer = m.order == StorageOrder::column_major ? local[1] : local[0];
  std::vector<T> v(std::size_t(std::max<index_t>(outer, 1) * m.leading), pad);
  const auto c = m.coord_of(rank);
  if (!c) return v;
  for (index_t i = 0; i < local[0]; ++i)
    for (index_t j = 0; j < local[1]; ++j) {
      const index_t at = m.order == StorageOrder::column_major ? i + j * m.leading : i * m.leading + j;
      v[std::size_t(at)] = f(m.axes[0].global_index((*c)[0], i), m.axes[1].global_index((*c)[1], j));
    }
  return v;
}

template <class T>
void run_case(std::mt19937& rng, int case_number, bool copies_only) {
  const int rank = world_rank();
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const BlockCyclicMatrix a = random_matrix(rng, rank), b = random_matrix(rng, rank);
  const MatrixOp op = copies_only ? MatrixOp(pick(0, 1)) : MatrixOp(pick(0, 2));
  const bool transpose = op != MatrixOp::none;
  // The window: as large as both matrices allow, at a random place.
  const Index<2> room_a =
      transpose ? Index<2>{a.axes[1].extent, a.axes[0].extent} : Index<2>{a.axes[0].extent, a.axes[1].extent};
  Index<2> extent{}, a_at{}, b_at{};
  for (std::size_t d = 0; d < 2; ++d) {
    extent[d] = pick(0, int(std::min(room_a[d], b.axes[d].extent)));
    b_at[d] = pick(0, int(b.axes[d].extent - extent[d]));
  }
  const Index<2> a_extent = transpose ? Index<2>{extent[1], extent[0]} : extent;
  for (std::size_t d = 0; d < 2; ++d) a_at[d] = pick(0, int(a.axes[d].extent - a_extent[d]));
  const T scalars[] = {T(0), T(1), T(-1.5), value_of<T>(1, 2, 3)};
  T alpha = copies_only ? T(1) : scalars[pick(0, 3)];
  T beta = copies_only ? T(0) : scalars[pick(0, 3)];
  const bool nan_b = beta == T(0) && !std::is_same_v<T, int> && pick(0, 1);
  const T pad = value_of<T>(-9, -9, 99);

  const auto a_value = [](index_t i, index_t j) { return value_of<T>(i, j, 1); };
  const auto b_value = [&](index_t i, index_t j) {
    if constexpr (!std::is_same_v<T, int>)
      if (nan_b) return T(std::nan(""));
    return value_of<T>(i, j, 7);
  };
  std::vector<T> la = local_array<T>(a, rank, a_value, pad);
  std::vector<T> lb = local_array<T>(b, rank, b_value, pad);
  MatrixTransform<T> t(a, a_at, b, b_at, extent, op, MPI_COMM_WORLD,
                       copies_only ? MatrixExecutions::copies_only : MatrixExecutions::any);
  t.execute(alpha, la.data(), beta, lb.data());
  t.execute(alpha, la.data(), beta, lb.data());  // twice: the second sees the first's B
  const auto expected = [&](index_t i, index_t j) {
    T v = b_value(i, j);
    const index_t r = i - b_at[0], c = j - b_at[1];
    if (r < 0 || c < 0 || r >= extent[0] || c >= extent[1]) return v;
    T x = transpose ? a_value(a_at[0] + c, a_at[1] + r) : a_value(a_at[0] + r, a_at[1] + c);
    if (op == MatrixOp::conjugate_transpose) x = detail::conjugate_of(x);
    for (int k = 0; k < 2; ++k)
      v = alpha == T(0) ? (beta == T(0) ? T(0) : beta * v)
                        : (beta == T(0) ? alpha * x : alpha * x + beta * v);
    return v;
  };
  const std::vector<T> want = local_array<T>(b, rank, expected, pad);
  int wrong = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    if (!same(lb[k], want[k]) && wrong++ < 3)
      ADD_FAILURE() << "case " << case_number << " rank " << rank << ": element " << k
                    << " of B's local array";
  EXPECT_EQ(wrong, 0) << "case " << case_number << ": op " << int(op) << ", window " << extent[0] << "x"
                      << extent[1] << " at B(" << b_at[0] << "," << b_at[1] << ") A(" << a_at[0] << ","
                      << a_at[1] << ")";
}

TEST(MatrixTransform, RandomWindowsAgainstTheOracle) {
  std::mt19937 rng(20261123);  // the same cases on every rank
  for (int c = 0; c < 150; ++c) run_case<double>(rng, c, false);
  for (int c = 0; c < 60; ++c) run_case<Complex>(rng, c, false);
  for (int c = 0; c < 60; ++c) run_case<int>(rng, c, true);
  for (int c = 0; c < 60; ++c) run_case<double>(rng, c, true);
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

TEST(MatrixTransform, BadWindowsAndMatricesAreRefusedOnEveryRank) {
  BlockCyclicMatrix m;
  m.axes = {CyclicAxis{8, 2, 1, 0}, CyclicAxis{8, 2, world_size(), 0}};
  m.ranks.resize(std::size_t(world_size()));
  std::iota(m.ranks.begin(), m.ranks.end(), 0);
  m.leading = 8;
  EXPECT_THROW((MatrixTransform<double>(m, {0, 0}, m, {4, 0}, {5, 1}, MatrixOp::none, MPI_COMM_WORLD)),
               ShapeMismatch);
  BlockCyclicMatrix bad = m;
  bad.axes[1].source = world_size();
  EXPECT_THROW((MatrixTransform<double>(m, {0, 0}, bad, {0, 0}, {1, 1}, MatrixOp::none, MPI_COMM_WORLD)),
               LayoutError);
  bad = m;
  if (world_rank() == 0) bad.leading = 1;  // one rank's local array is too narrow
  EXPECT_THROW((MatrixTransform<double>(m, {0, 0}, bad, {0, 0}, {1, 1}, MatrixOp::none, MPI_COMM_WORLD)),
               LayoutError);
}

}  // namespace
}  // namespace distarray
