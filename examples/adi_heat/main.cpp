// Peaceman-Rachford ADI for the 2-D heat equation u_t = u_xx + u_yy on the
// unit square, zero boundary values, u(0) = sin(pi x) sin(pi y), whose exact
// solution decays as exp(-2 pi^2 t).  N x N interior points, h = 1/(N+1),
// dt = h/2: the scheme is second order in h and dt, so the error falls 4x
// when N+1 doubles.
//
// Rows live in (block,*) and columns in (*,block); each half step solves
// tridiagonal systems along the local dimension (Thomas), and a persistent
// plan pair transposes between the half steps — the ADI pattern of Thakur et
// al. and Kaushik et al.  Every line is solved whole on one rank, so the
// result is bit-for-bit the same on any number of ranks.
//
//   mpiexec -n 4 adi_heat [--n 128] [--t-end 0.1] [--steps S]
//                         [--checkpoint FILE --checkpoint-every K] [--restart FILE]
//                         [--save FILE] [--compare FILE] [--convergence]
// --convergence runs N = 31, 63, 127 to t = 0.25 and fails unless the error
// falls at order >= 1.8.

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <distarray/redist.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

namespace {

using distarray::index_t;
using Array = distarray::DistArray<double, 2, Kokkos::HostSpace>;
using Plan = distarray::Plan<double, 2, Kokkos::HostSpace>;
using Layout = distarray::Layout<2>;

struct Options {
  index_t n = 128;
  double t_end = 0.1;
  long steps = -1;  // default: t_end / dt
  std::string checkpoint, restart, save, compare;
  long checkpoint_every = 0;
  bool convergence = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw distarray::UsageError("option '" + a + "' needs a value");
      return argv[++i];
    };
    if (a == "--n")
      o.n = std::stol(value());
    else if (a == "--t-end")
      o.t_end = std::stod(value());
    else if (a == "--steps")
      o.steps = std::stol(value());
    else if (a == "--checkpoint")
      o.checkpoint = value();
    else if (a == "--checkpoint-every")
      o.checkpoint_every = std::stol(value());
    else if (a == "--restart")
      o.restart = value();
    else if (a == "--save")
      o.save = value();
    else if (a == "--compare")
      o.compare = value();
    else if (a == "--convergence")
      o.convergence = true;
    else
      throw distarray::UsageError("unknown option '" + a + "'");
  }
  if (o.n < 2) throw distarray::UsageError("--n must be at least 2");
  return o;
}

/// Solves (1 + 2c) x_k - c (x_{k-1} + x_{k+1}) = d_k in place (Thomas), with
/// zero values beyond both ends; elements `stride` apart.
void solve_line(double* d, index_t n, index_t stride, double c, std::vector<double>& scratch) {
  scratch.resize(std::size_t(n));
  const double b = 1 + 2 * c;
  scratch[0] = -c / b;
  d[0] /= b;
  for (index_t k = 1; k < n; ++k) {
    const double m = b + c * scratch[std::size_t(k - 1)];
    scratch[std::size_t(k)] = -c / m;
    d[k * stride] = (d[k * stride] + c * d[(k - 1) * stride]) / m;
  }
  for (index_t k = n - 2; k >= 0; --k) d[k * stride] -= scratch[std::size_t(k)] * d[(k + 1) * stride];
}

/// y = x + c (x_{k-1} - 2 x_k + x_{k+1}) along a line (x and y with their
/// own strides), zero beyond its ends.
void explicit_line(const double* x, index_t xs, double* y, index_t ys, index_t n, double c) {
  for (index_t k = 0; k < n; ++k) {
    const double left = k > 0 ? x[(k - 1) * xs] : 0.0, right = k + 1 < n ? x[(k + 1) * xs] : 0.0;
    y[k * ys] = x[k * xs] + c * (left - 2 * x[k * xs] + right);
  }
}

/// The ADI solver: state in rows, work arrays in both layouts, the plan pair.
class Solver {
 public:
  explicit Solver(index_t n)
      : n_(n),
        h_(1.0 / double(n + 1)),
        rows_layout_(Layout::parse("block,* on " + std::to_string(size()) + "x1", {n, n})),
        cols_layout_(Layout::parse("*,block on 1x" + std::to_string(size()), {n, n})),
        u_(rows_layout_, MPI_COMM_WORLD),
        work_rows_(rows_layout_, MPI_COMM_WORLD),
        cols_(cols_layout_, MPI_COMM_WORLD),
        to_cols_(rows_layout_, cols_layout_, MPI_COMM_WORLD),
        to_rows_(cols_layout_, rows_layout_, MPI_COMM_WORLD) {
    const double pi = std::numbers::pi;
    u_.fill([&](const distarray::Index<2>& g) {
      return std::sin(pi * h_ * double(g[0] + 1)) * std::sin(pi * h_ * double(g[1] + 1));
    });
  }

  static int size() {
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
  }

  double dt() const { return h_ / 2; }
  Array& state() { return u_; }

  /// One Peaceman-Rachford step: (I - c dx2) u* = (I + c dy2) u, (I - c dy2) u' = (I + c dx2) u*.
  void step() {
    const double c = dt() / (2 * h_ * h_);
    std::vector<double> scratch;
    // Along y (the local dimension of rows): the explicit half.
    const index_t nrows = u_.local_extents()[0];
    double* u = u_.local().data();
    double* w = work_rows_.local().data();
    for (index_t i = 0; i < nrows; ++i) explicit_line(u + i * n_, 1, w + i * n_, 1, n_, c);
    to_cols_.execute(work_rows_, cols_);
    // Along x (the local dimension of columns): implicit, then explicit.
    const index_t ncols = cols_.local_extents()[1];
    double* v = cols_.local().data();
    std::vector<double> line(static_cast<std::size_t>(n_));
    for (index_t j = 0; j < ncols; ++j) {
      solve_line(v + j, n_, ncols, c, scratch);
      for (index_t k = 0; k < n_; ++k) line[std::size_t(k)] = v[j + k * ncols];
      explicit_line(line.data(), 1, v + j, ncols, n_, c);  // reads the copy, writes the column
    }
    to_rows_.execute(cols_, work_rows_);
    // Along y again: implicit.
    std::memcpy(u, w, sizeof(double) * std::size_t(nrows * n_));
    for (index_t i = 0; i < nrows; ++i) solve_line(u + i * n_, n_, 1, c, scratch);
  }

  /// Largest difference from the exact solution at time t (all ranks).
  double error(double t) const {
    const double pi = std::numbers::pi, decay = std::exp(-2 * pi * pi * t);
    double e = 0;
    for (index_t i = 0; i < u_.local_size(); ++i) {
      const auto g = u_.global_index(distarray::row_major_index(i, u_.local_extents()));
      const double exact =
          decay * std::sin(pi * h_ * double(g[0] + 1)) * std::sin(pi * h_ * double(g[1] + 1));
      e = std::max(e, std::abs(u_.local().data()[i] - exact));
    }
    MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return e;
  }

  double transpose_seconds() const {
    const auto& a = to_cols_.report();
    const auto& b = to_rows_.report();
    return a.pack_seconds + a.exchange_seconds + a.unpack_seconds + b.pack_seconds + b.exchange_seconds +
           b.unpack_seconds;
  }

 private:
  index_t n_;
  double h_;
  Layout rows_layout_, cols_layout_;
  Array u_, work_rows_, cols_;
  Plan to_cols_, to_rows_;
};

/// The step count is kept beside the state, as a one-element array.
using StepArray = distarray::DistArray<std::int64_t, 1, Kokkos::HostSpace>;

void write_checkpoint(const std::string& path, Solver& s, long step) {
  StepArray count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
  count.fill([&](const distarray::Index<1>&) { return std::int64_t(step); });
  distarray::CheckpointWriter w(path, MPI_COMM_WORLD);
  w.write("u", s.state());
  w.write("step", count);
  w.commit();
}

long read_checkpoint(const std::string& path, Solver& s) {
  StepArray count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
  distarray::restore(path, "step", count);
  std::int64_t step = count.local_size() ? count.local()(0) : 0;
  MPI_Bcast(&step, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  distarray::restore(path, "u", s.state());
  return long(step);
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int run(const Options& o) {
  if (o.convergence) {
    std::vector<double> errors;
    for (index_t n : {31, 63, 127}) {
      Solver s(n);
      const long steps = std::lround(0.25 / s.dt());  // exact: dt = 1/(2(N+1))
      for (long k = 0; k < steps; ++k) s.step();
      errors.push_back(s.error(double(steps) * s.dt()));
      if (rank() == 0) std::printf("N = %3ld: %ld steps, max error %.3e\n", long(n), steps, errors.back());
    }
    bool ok = true;
    for (std::size_t k = 1; k < errors.size(); ++k) {
      const double order = std::log2(errors[k - 1] / errors[k]);
      if (rank() == 0) std::printf("observed order %.2f\n", order);
      ok = ok && order >= 1.8;
    }
    if (rank() == 0) std::printf("%s\n", ok ? "second-order convergence: ok" : "convergence order too low");
    return ok ? 0 : 1;
  }
  Solver s(o.n);
  const long steps = o.steps >= 0 ? o.steps : std::lround(o.t_end / s.dt());
  long step = o.restart.empty() ? 0 : read_checkpoint(o.restart, s);
  if (rank() == 0 && !o.restart.empty())
    std::printf("restarted from %s at step %ld\n", o.restart.c_str(), step);
  const double start = MPI_Wtime();
  const long first = step;
  for (; step < steps; ++step) {
    s.step();
    if (!o.checkpoint.empty() && o.checkpoint_every > 0 && (step + 1) % o.checkpoint_every == 0)
      write_checkpoint(o.checkpoint, s, step + 1);
  }
  const double elapsed = MPI_Wtime() - start;
  const double err = s.error(double(steps) * s.dt());
  if (rank() == 0)
    std::printf(
        "ADI heat: N = %ld, %d ranks, steps %ld..%ld, dt = %.3e, max error %.3e, %.3f ms/step (%.0f%% in "
        "transposes)\n",
        long(o.n), Solver::size(), first, steps, s.dt(), err,
        1e3 * elapsed / double(std::max(1L, steps - first)),
        elapsed > 0 ? 100 * s.transpose_seconds() / elapsed : 0.0);
  if (!o.save.empty()) distarray::save(o.save, "u", s.state());
  if (o.compare.empty()) return 0;
  Array other(s.state().layout(), MPI_COMM_WORLD);
  distarray::restore(o.compare, "u", other);
  long differ = 0;
  for (index_t i = 0; i < other.local_size(); ++i)
    differ += std::memcmp(&other.local().data()[i], &s.state().local().data()[i], sizeof(double)) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank() == 0)
    std::printf("compared with %s: %s\n", o.compare.c_str(),
                differ == 0 ? "bit-for-bit equal" : (std::to_string(differ) + " elements differ").c_str());
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  try {
    return run(parse(argc, argv));
  } catch (const distarray::Error& e) {
    if (rank() == 0) std::fprintf(stderr, "adi_heat: %s\n", e.what());
  } catch (const std::exception& e) {  // std::stol and friends on bad numbers
    if (rank() == 0) std::fprintf(stderr, "adi_heat: bad number in the arguments (%s)\n", e.what());
  }
  return 1;
}
