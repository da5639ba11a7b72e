#pragma once
// Random block-cyclic matrices and their local arrays for the MatrixTransform
// tests, checked element by element against the oracle of element_oracle.hpp.

#include <distarray/redist/matrix_transform.hpp>

#include "mpi/element_oracle.hpp"
#include "mpi/node_shared_copy.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace distarray::testing {

/// A random matrix on a random subset of the world's ranks (sources other
/// than 0, shuffled rank maps, padded leading dimensions, both orders).
inline BlockCyclicMatrix random_matrix(std::mt19937& rng, int rank) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  BlockCyclicMatrix m;
  const int size = world_size();
  const int p = pick(1, size), q = pick(1, size / p);
  for (int d = 0; d < 2; ++d)
    m.axes[std::size_t(d)] =
        CyclicAxis{pick(0, 14), pick(1, 5), d == 0 ? p : q, pick(0, (d == 0 ? p : q) - 1)};
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

/// One transform B = alpha*op(A) + beta*B: matrices, window, op, scalars.
template <class T>
struct TransformCase {
  BlockCyclicMatrix a, b;
  Index<2> extent{}, a_at{}, b_at{};
  MatrixOp op = MatrixOp::none;
  T alpha{1}, beta{0};
  bool nan_b = false;  // B holds NaN (beta = 0 must never read it)
};

/// Random matrices and a random window for `op`, at least `least` x `least`
/// where the matrices allow.  The same draws on every rank.
template <class T>
TransformCase<T> draw_case(std::mt19937& rng, MatrixOp op, T alpha, T beta, int least = 0) {
  const auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, std::max(lo, hi))(rng);
  };
  TransformCase<T> c{random_matrix(rng, world_rank()), random_matrix(rng, world_rank())};
  c.op = op, c.alpha = alpha, c.beta = beta;
  const bool transpose = op != MatrixOp::none;
  const auto& a = c.a.axes;
  const Index<2> room_a =
      transpose ? Index<2>{a[1].extent(), a[0].extent()} : Index<2>{a[0].extent(), a[1].extent()};
  for (std::size_t d = 0; d < 2; ++d) {
    const int room = int(std::min(room_a[d], c.b.axes[d].extent()));
    c.extent[d] = pick(std::min(least, room), room);
    c.b_at[d] = pick(0, int(c.b.axes[d].extent() - c.extent[d]));
  }
  const Index<2> a_extent = transpose ? Index<2>{c.extent[1], c.extent[0]} : c.extent;
  for (std::size_t d = 0; d < 2; ++d) c.a_at[d] = pick(0, int(a[d].extent() - a_extent[d]));
  c.nan_b = beta == T(0) && !std::is_integral_v<T> && pick(0, 1);
  return c;
}

/// `v` copied into a new view of Space (device memory on a GPU build).
template <class Space, class T>
Kokkos::View<T*, Space> view_of(const std::vector<T>& v) {
  Kokkos::View<T*, Space> d("distarray::test_matrix", v.size());
  Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                           v.data(), v.size()));
  return d;
}

/// Executes the case twice on `pairs` pairs of local arrays (pair j's values
/// marked by j; the second execution sees the first's B): first with
/// execute, then with start and test until complete; the arrays live in the
/// transform's memory space.  Returns how many elements of this rank's local
/// arrays of B, padding included, differ from the global formula (the first
/// three reported as failures).  With `node_shared_b`, B's local arrays
/// live in node-shared memory (host spaces only).
template <class T, class Transform>
int wrong_elements(const TransformCase<T>& c, Transform& transform, const std::string& what, int pairs = 1,
                   bool node_shared_b = false) {
  using Space = typename Transform::memory_space;
  const int rank = world_rank();
  const T pad = value_of<T>(-9, -9, 99);
  const auto a_value = [](int pair) {
    return [=](index_t i, index_t j) { return value_of<T>(i, j, 1 + 10 * pair); };
  };
  const auto b_value = [&](int pair) {
    return [&c, pair](index_t i, index_t j) {
      if constexpr (!std::is_integral_v<T>)
        if (c.nan_b) return T(std::nan(""));
      return value_of<T>(i, j, 7 + 10 * pair);
    };
  };
  std::vector<Kokkos::View<T*, Space>> la, lb;
  std::vector<std::shared_ptr<const detail::NodeMemory>> shared;  // B's local arrays where node_shared_b
  std::vector<const T*> a;
  std::vector<T*> b;
  for (int pair = 0; pair < pairs; ++pair) {
    la.push_back(view_of<Space>(local_array<T>(c.a, rank, a_value(pair), pad)));
    lb.push_back(view_of<Space>(local_array<T>(c.b, rank, b_value(pair), pad)));
    if (node_shared_b) lb.back() = node_shared_copy(lb.back(), shared);  // the shared engine's one pass
    a.push_back(la.back().data());
    b.push_back(lb.back().data());
  }
  if (pairs == 1)
    transform.execute(c.alpha, a[0], c.beta, b[0]);
  else
    transform.execute(c.alpha, std::span<const T* const>(a), c.beta, std::span<T* const>(b));
  Request request = transform.start(c.alpha, std::span<const T* const>(a), c.beta, std::span<T* const>(b));
  while (!request.test()) std::this_thread::yield();  // ranks may outnumber cores
  const bool transpose = c.op != MatrixOp::none;
  int wrong = 0;
  for (int pair = 0; pair < pairs; ++pair) {
    const auto expected = [&](index_t i, index_t j) {
      T v = b_value(pair)(i, j);
      const index_t r = i - c.b_at[0], col = j - c.b_at[1];
      if (r < 0 || col < 0 || r >= c.extent[0] || col >= c.extent[1]) return v;
      T x = transpose ? a_value(pair)(c.a_at[0] + col, c.a_at[1] + r)
                      : a_value(pair)(c.a_at[0] + r, c.a_at[1] + col);
      if (c.op == MatrixOp::conjugate_transpose) x = conjugated(x);
      for (int k = 0; k < 2; ++k)
        v = c.alpha == T(0) ? (c.beta == T(0) ? T(0) : c.beta * v)
                            : (c.beta == T(0) ? c.alpha * x : c.alpha * x + c.beta * v);
      return v;
    };
    const std::vector<T> want = local_array<T>(c.b, rank, expected, pad);
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lb[std::size_t(pair)]);
    for (std::size_t k = 0; k < want.size(); ++k)
      if (!same(got(k), want[k]) && wrong++ < 3)
        ADD_FAILURE() << what << ", rank " << rank << ", pair " << pair << ": element " << k
                      << " of B's local array";
  }
  return wrong;
}

/// The case's description for a failure message.
template <class T>
std::string describe(const TransformCase<T>& c) {
  std::ostringstream scalars;
  scalars << ", alpha " << c.alpha << ", beta " << c.beta << (c.nan_b ? ", B NaN" : "");
  return "op " + std::to_string(int(c.op)) + scalars.str() + ", window " + std::to_string(c.extent[0]) + "x" +
         std::to_string(c.extent[1]) + " at B(" + std::to_string(c.b_at[0]) + "," +
         std::to_string(c.b_at[1]) + ") A(" + std::to_string(c.a_at[0]) + "," + std::to_string(c.a_at[1]) +
         ")";
}

/// A random case: op, scalars, matrices and window, on `pairs` pairs of
/// arrays, moved by `engine`.
template <class T>
void run_random_case(std::mt19937& rng, int case_number, bool copies_only, int pairs = 1,
                     ExchangeEngine engine = ExchangeEngine::automatic) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const MatrixOp op = copies_only ? MatrixOp(pick(0, 1)) : MatrixOp(pick(0, 2));
  const T scalars[] = {T(0), T(1), T(-1.5), value_of<T>(1, 2, 3)};
  const T alpha = copies_only ? T(1) : scalars[pick(0, 3)];
  const T beta = copies_only ? T(0) : scalars[pick(0, 3)];
  const auto c = draw_case<T>(rng, op, alpha, beta);
  PlanOptions options;
  options.exchange = engine;
  MatrixTransform<T> t(c.a, c.a_at, c.b, c.b_at, c.extent, op, MPI_COMM_WORLD,
                       copies_only ? MatrixExecutions::copies_only : MatrixExecutions::any, options);
  const std::string what =
      "case " + std::to_string(case_number) + " (" + std::string(to_string(engine)) + ")";
  EXPECT_EQ(wrong_elements(c, t, what, pairs), 0) << what << ", " << pairs << " pairs: " << describe(c);
}

}  // namespace distarray::testing
