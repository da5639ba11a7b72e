// 2-D complex FFT from 1-D FFTW transforms: FFT along the local rows of
// (block,*), one transpose to (*,block) with a distarray plan, FFT along the
// local columns.  The result (distributed by columns, natural order) is
// compared with serial FFTW on the gathered array, and the whole transform is
// timed against FFTW-MPI's own 2-D transform (FFTW_MEASURE, TRANSPOSED_OUT so
// that neither transposes back) in the same run.
//
//   mpiexec -n 4 fft2d [--n 1024] [--reps 10]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <median_timing.hpp>

#include <fftw3-mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using distarray::index_t;
using cplx = std::complex<double>;
using Array = distarray::DistArray<cplx, 2, Kokkos::HostSpace>;

fftw_complex* as_fftw(cplx* p) { return reinterpret_cast<fftw_complex*>(p); }

/// Test input: smooth plus a deterministic pseudo-random part.
cplx input(index_t i, index_t j, index_t n) {
  const double x = double(i) / double(n), y = double(j) / double(n);
  const double r = double((i * 7919 + j * 104729) % 1009) / 1009.0;
  return {std::sin(6.28318530717958 * x) + r, std::cos(12.5663706143592 * y) - 0.5 * r};
}

/// The distributed transform: rows, transpose, columns.
class Fft2d {
 public:
  Fft2d(index_t n, int p)
      : rows_(distarray::Layout<2>::parse("block,* on " + std::to_string(p) + "x1", {n, n}), MPI_COMM_WORLD),
        cols_(distarray::Layout<2>::parse("*,block on 1x" + std::to_string(p), {n, n}), MPI_COMM_WORLD),
        transpose_(rows_.layout(), cols_.layout(), MPI_COMM_WORLD) {
    const int len = int(n);
    const int nrows = int(rows_.local_extents()[0]), ncols = int(cols_.local_extents()[1]);
    // Along rows: nrows transforms of n contiguous elements, in place.
    row_plan_ =
        fftw_plan_many_dft(1, &len, nrows, as_fftw(rows_.local().data()), nullptr, 1, len,
                           as_fftw(rows_.local().data()), nullptr, 1, len, FFTW_FORWARD, FFTW_MEASURE);
    // Along columns: ncols transforms of n elements ncols apart, in place.
    col_plan_ =
        fftw_plan_many_dft(1, &len, ncols, as_fftw(cols_.local().data()), nullptr, ncols, 1,
                           as_fftw(cols_.local().data()), nullptr, ncols, 1, FFTW_FORWARD, FFTW_MEASURE);
  }
  ~Fft2d() {
    fftw_destroy_plan(row_plan_);
    fftw_destroy_plan(col_plan_);
  }

  Array& input() { return rows_; }
  const Array& output() const { return cols_; }
  const distarray::PlanReport& transpose_report() const { return transpose_.report(); }

  void execute() {
    if (rows_.local_size() > 0) fftw_execute(row_plan_);
    transpose_.execute(rows_, cols_);
    if (cols_.local_size() > 0) fftw_execute(col_plan_);
  }

 private:
  Array rows_, cols_;
  distarray::Plan<cplx, 2, Kokkos::HostSpace> transpose_;
  fftw_plan row_plan_, col_plan_;
};

int run(int argc, char** argv) {
  index_t n = 1024;
  int reps = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--n"))
      n = std::stol(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--reps"))
      reps = std::stoi(argv[i + 1]);
    else
      throw distarray::UsageError(std::string("unknown option '") + argv[i] + "'");
  }
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  // Correctness: one transform against serial FFTW of the gathered input.
  Fft2d fft(n, p);
  const auto fill = [&](Array& a) {
    a.fill([n](const distarray::Index<2>& g) { return input(g[0], g[1], n); });
  };
  fill(fft.input());
  const std::vector<cplx> in = fft.input().gather(0);
  fft.execute();
  const std::vector<cplx> out = fft.output().gather(0);
  int ok = 1;
  if (me == 0) {
    std::vector<cplx> serial(in);
    fftw_plan plan = fftw_plan_dft_2d(int(n), int(n), as_fftw(serial.data()), as_fftw(serial.data()),
                                      FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    double diff = 0, norm = 0;
    for (std::size_t k = 0; k < serial.size(); ++k) {
      diff = std::max(diff, std::abs(out[k] - serial[k]));
      norm = std::max(norm, std::abs(serial[k]));
    }
    const double rel = diff / norm;
    ok = rel <= 1e-12;
    std::printf("2-D FFT %ldx%ld on %d ranks: max relative difference from serial FFTW %.2e (%s)\n", long(n),
                long(n), p, rel, ok ? "ok" : "TOO LARGE");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

  // Timing: distarray's transpose between FFTW row and column transforms...
  const double ours = distarray::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] {
    fill(fft.input());
    fft.execute();
  });
  const double filling = distarray::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] { fill(fft.input()); });
  // ... against FFTW-MPI's 2-D transform on its own (block) distribution.
  ptrdiff_t local_n0 = 0, local_0_start = 0;
  const ptrdiff_t alloc = fftw_mpi_local_size_2d(n, n, MPI_COMM_WORLD, &local_n0, &local_0_start);
  fftw_complex* data = fftw_alloc_complex(std::size_t(std::max<ptrdiff_t>(alloc, 1)));
  fftw_plan mpi_plan = fftw_mpi_plan_dft_2d(n, n, data, data, MPI_COMM_WORLD, FFTW_FORWARD,
                                            FFTW_MEASURE | FFTW_MPI_TRANSPOSED_OUT);
  const auto fill_fftw = [&] {
    for (ptrdiff_t i = 0; i < local_n0; ++i)
      for (index_t j = 0; j < n; ++j) {
        const cplx v = input(local_0_start + i, j, n);
        data[i * n + j][0] = v.real();
        data[i * n + j][1] = v.imag();
      }
  };
  const double theirs = distarray::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] {
    fill_fftw();
    fftw_execute(mpi_plan);
  });
  const double theirs_filling = distarray::median_slowest_seconds(MPI_COMM_WORLD, reps, fill_fftw);
  fftw_destroy_plan(mpi_plan);
  fftw_free(data);
  if (me == 0)
    std::printf(
        "time per transform (median of %d, input fill excluded): distarray + FFTW %.3f ms, FFTW-MPI %.3f ms, "
        "FFTW-MPI / distarray %.2f\n",
        reps, (ours - filling) * 1e3, (theirs - theirs_filling) * 1e3,
        (theirs - theirs_filling) / (ours - filling));
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  fftw_mpi_init();
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fft2d: %s\n", e.what());
  }
  fftw_mpi_cleanup();
  return status;
}
