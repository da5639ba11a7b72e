// distarray's ScaLAPACK routines against ScaLAPACK's own, in one program:
// random cases of p?gemr2d (grids of other shapes and rank counts, any rank
// maps), p?tran(u/c) and p?geadd (every trans), every element type, source
// processes other than 0, padded LLD_, unaligned submatrices, alpha and beta
// in {0, 1, -1.5, complex}, beta = 0 with a NaN-filled C.  Copies must match
// ScaLAPACK's bit for bit, sums within rounding; every element of every
// local array is compared, padding included.

#include "blacs_grids.hpp"
#include "mpi/world.hpp"
#include "routines.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

namespace distarray::testing {
namespace {

template <class T>
T value(int i, int j, int salt) {
  const double v = double(i * 31 + j * 7 + salt) * 0.125 - 20;
  if constexpr (std::is_same_v<T, int>)
    return i * 1000 + j + salt;
  else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
    return T(real_t<T>(v), real_t<T>(i - 3 * j + salt));
  else
    return T(v);
}

template <class T>
bool close(const T& x, const T& y) {
  if constexpr (std::is_same_v<T, int>) {
    return x == y;
  } else if constexpr (std::is_floating_point_v<T>) {
    const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-13;
    return (std::isnan(x) && std::isnan(y)) ||
           std::abs(double(x) - double(y)) <= tolerance * (1 + std::abs(double(y)));
  } else {
    return close(x.real(), y.real()) && close(x.imag(), y.imag());
  }
}

/// The world's ranks in a random order.
std::vector<int> shuffled_ranks(std::mt19937& rng) {
  std::vector<int> r(static_cast<std::size_t>(world_size()));
  std::iota(r.begin(), r.end(), 0);
  std::shuffle(r.begin(), r.end(), rng);
  return r;
}

class Cases {
 public:
  explicit Cases(unsigned seed) : rng_(seed) {}
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  /// A grid shape for the world: the pairs the issue names when they fit, else any.
  std::array<std::array<int, 2>, 2> shapes() {
    const int p = world_size();
    using Pair = std::array<std::array<int, 2>, 2>;
    std::vector<Pair> named{Pair{{{1, p}, {p, 1}}}};
    if (p >= 4) named.push_back(Pair{{{2, 2}, {1, 4}}});
    if (p >= 6) named.push_back(Pair{{{2, 3}, {3, 2}}});
    if (pick(0, 2) == 0) {
      auto s = named[std::size_t(pick(0, int(named.size()) - 1))];
      if (pick(0, 1)) std::swap(s[0], s[1]);
      return s;
    }
    return {any_shape(), any_shape()};
  }
  std::array<int, 2> any_shape() {
    const int rows = pick(1, world_size());
    return {rows, pick(1, world_size() / rows)};
  }
  std::vector<int> ranks() { return shuffled_ranks(rng_); }

  /// A matrix of at least `rows` x `cols` on g, with a random block size, source and padding.
  template <class T>
  LocalMatrix<T> matrix(const BlacsGrid& g, int rows, int cols, int salt, bool nan) {
    const int m = rows + pick(0, 6), n = cols + pick(0, 6);
    const auto f = [&](int i, int j) {
      if constexpr (!std::is_same_v<T, int>)
        if (nan) return T(std::nan(""));
      return value<T>(i, j, salt);
    };
    return LocalMatrix<T>(g, m, n, pick(1, 4), pick(1, 4), pick(0, g.rows - 1), pick(0, g.cols - 1),
                          pick(0, 2), f, value<T>(-1, -1, 99));
  }
  template <class T>
  T scalar() {
    const T s[] = {T(0), T(1), T(-1.5), value<T>(1, 2, 3)};
    return s[pick(0, 3)];
  }

 private:
  std::mt19937 rng_;
};

/// Window origin (1-based) of `extent` elements inside `total`.
int origin(Cases& c, int total, int extent) { return 1 + c.pick(0, total - extent); }

template <class T>
int compare(const std::vector<T>& ours, const std::vector<T>& theirs, bool exact, const std::string& what) {
  int wrong = 0;
  for (std::size_t k = 0; k < ours.size(); ++k) {
    const bool ok = exact ? std::memcmp(&ours[k], &theirs[k], sizeof(T)) == 0 : close(ours[k], theirs[k]);
    if (!ok && wrong++ == 0) ADD_FAILURE() << what << ": local element " << k << " differs from ScaLAPACK's";
  }
  return wrong;
}

template <class T>
void gemr2d_case(Cases& c, const BlacsGrid& all, int number) {
  const auto shapes = c.shapes();
  const BlacsGrid ga(shapes[0][0], shapes[0][1], c.ranks()), gb(shapes[1][0], shapes[1][1], c.ranks());
  const int m = c.pick(0, 9), n = c.pick(0, 9);
  const auto a = c.matrix<T>(ga, m, n, 1, false);
  auto theirs = c.matrix<T>(gb, m, n, 2, false);
  auto ours = theirs;
  const int ia = origin(c, a.desc[2], m), ja = origin(c, a.desc[3], n);
  const int ib = origin(c, theirs.desc[2], m), jb = origin(c, theirs.desc[3], n);
  gemr2d<T>(true, m, n, a.local.data(), ia, ja, a.desc.data(), theirs.local.data(), ib, jb,
            theirs.desc.data(), all.ctxt);
  gemr2d<T>(false, m, n, a.local.data(), ia, ja, a.desc.data(), ours.local.data(), ib, jb, ours.desc.data(),
            all.ctxt);
  EXPECT_EQ(distarray_scalapack_last_error(), 0) << "gemr2d case " << number;
  compare(ours.local, theirs.local, true, "gemr2d case " + std::to_string(number));
}

/// p?tran(u/c) or p?geadd: A and C on one grid (as PBLAS requires); the ranks outside it do not call.
template <class T>
void sum_case(Cases& c, int number) {
  const auto shape = c.any_shape();
  const BlacsGrid g(shape[0], shape[1], c.ranks());
  const bool complex = !std::is_floating_point_v<T>;
  const bool geadd_call = c.pick(0, 1);
  const char trans = "NTC"[c.pick(0, 2)];
  const bool conjugate = geadd_call ? trans == 'C' : complex && c.pick(0, 1);
  const bool transpose = !geadd_call || trans != 'N';
  const T alpha = c.scalar<T>(), beta = c.scalar<T>();
  const bool nan_c = beta == T(0) && c.pick(0, 1);
  const int m = c.pick(0, 9), n = c.pick(0, 9);
  const int am = transpose ? n : m, an = transpose ? m : n;
  const auto a = c.matrix<T>(g, am, an, 1, false);
  auto theirs = c.matrix<T>(g, m, n, 2, nan_c);
  auto ours = theirs;
  const int ia = origin(c, a.desc[2], am), ja = origin(c, a.desc[3], an);
  const int ic = origin(c, theirs.desc[2], m), jc = origin(c, theirs.desc[3], n);
  if (!g.inside()) return;
  for (bool reference : {true, false}) {
    auto& out = reference ? theirs : ours;
    if (geadd_call)
      geadd<T>(reference, trans, m, n, alpha, a.local.data(), ia, ja, a.desc.data(), beta, out.local.data(),
               ic, jc, out.desc.data());
    else
      tran<T>(reference, conjugate, m, n, alpha, a.local.data(), ia, ja, a.desc.data(), beta,
              out.local.data(), ic, jc, out.desc.data());
  }
  const std::string what =
      std::string(geadd_call ? "geadd " : "tran ") + trans + " case " + std::to_string(number);
  EXPECT_EQ(distarray_scalapack_last_error(), 0) << what;
  compare(ours.local, theirs.local, false, what);
}

TEST(ScalapackConformance, RandomCasesMatchScalapack) {
  std::vector<int> world(static_cast<std::size_t>(world_size()));
  std::iota(world.begin(), world.end(), 0);
  const BlacsGrid all(1, world_size(), world);  // the context spanning both grids of p?gemr2d
  Cases c(20261123);
  int number = 0;
  for (int k = 0; k < 60; ++k) {
    gemr2d_case<float>(c, all, number++);
    gemr2d_case<double>(c, all, number++);
    gemr2d_case<std::complex<float>>(c, all, number++);
    gemr2d_case<std::complex<double>>(c, all, number++);
    gemr2d_case<int>(c, all, number++);
    sum_case<float>(c, number++);
    sum_case<double>(c, number++);
    sum_case<std::complex<float>>(c, number++);
    sum_case<std::complex<double>>(c, number++);
  }
  EXPECT_GE(number, 500);
  distarray_scalapack_clear_cache();
  EXPECT_EQ(distarray_scalapack_cached_plans(), 0);
}

TEST(ScalapackConformance, RepeatedCallsPlanOnce) {
  std::vector<int> world(static_cast<std::size_t>(world_size()));
  std::iota(world.begin(), world.end(), 0);
  const BlacsGrid all(1, world_size(), world), column(world_size(), 1, world);
  const auto f = [](int i, int j) { return value<double>(i, j, 0); };
  const LocalMatrix<double> a(all, 30, 20, 3, 2, 0, world_size() - 1, 1, f, 0.0);
  const LocalMatrix<double> start(column, 30, 20, 4, 5, world_size() - 1, 0, 0, f, 0.0);
  LocalMatrix<double> theirs = start;
  gemr2d<double>(true, 25, 17, a.local.data(), 2, 3, a.desc.data(), theirs.local.data(), 4, 1,
                 theirs.desc.data(), all.ctxt);
  distarray_scalapack_clear_cache();
  for (int k = 0; k < 7; ++k) {  // the automatic engine tries each engine in the first executions
    LocalMatrix<double> ours = start;
    gemr2d<double>(false, 25, 17, a.local.data(), 2, 3, a.desc.data(), ours.local.data(), 4, 1,
                   ours.desc.data(), all.ctxt);
    compare(ours.local, theirs.local, true, "execution " + std::to_string(k));
  }
  EXPECT_EQ(distarray_scalapack_cached_plans(), 1);
  distarray_scalapack_clear_cache();
  EXPECT_EQ(distarray_scalapack_cached_plans(), 0);
}

TEST(ScalapackConformance, BadArgumentsNameTheArgumentOnEveryRank) {
  std::vector<int> world(static_cast<std::size_t>(world_size()));
  std::iota(world.begin(), world.end(), 0);
  const BlacsGrid g(1, world_size(), world);
  const auto f = [](int i, int j) { return value<double>(i, j, 0); };
  const LocalMatrix<double> a(g, 6, 8, 2, 2, 0, 0, 0, f, 0.0);
  const LocalMatrix<double> good(g, 8, 6, 2, 2, 0, 0, 0, f, 0.0);
  const auto expect = [&](int argument, char trans, int m, int ia, std::array<int, 9> desca,
                          std::array<int, 9> descc) {
    LocalMatrix<double> c = good;
    geadd<double>(false, trans, m, 6, 2.0, a.local.data(), ia, 1, desca.data(), 1.0, c.local.data(), 1, 1,
                  descc.data());
    EXPECT_EQ(distarray_scalapack_last_error(), argument) << "trans " << trans << " m " << m << " ia " << ia;
    EXPECT_EQ(c.local, good.local) << "C must be left as it was";
  };
  expect(1, 'X', 8, 1, a.desc, good.desc);   // TRANS
  expect(2, 'T', -1, 1, a.desc, good.desc);  // M
  expect(6, 'T', 8, 0, a.desc, good.desc);   // IA below 1
  expect(6, 'T', 8, 2, a.desc, good.desc);   // IA + N - 1 beyond M_ of A
  auto bad = a.desc;
  bad[4] = 0;  // MB_
  expect(8, 'T', 8, 1, bad, good.desc);
  bad = good.desc;
  bad[7] = world_size();  // CSRC_ outside the grid
  expect(13, 'T', 8, 1, a.desc, bad);
  bad = good.desc;
  if (world_rank() == world_size() - 1) bad[8] = good.desc[8] - 1;  // one rank's LLD_ below its local rows
  expect(13, 'T', 8, 1, a.desc, bad);
}

}  // namespace
}  // namespace distarray::testing
