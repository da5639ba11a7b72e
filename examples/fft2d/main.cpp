// 2-D complex FFT from 1-D FFTW transforms: FFT along the local rows of
// (block,*), a transpose to (*,block) with distarray plans, FFT along the
// local columns.  With one band (--chunks 1, the default) the column array's
// local blocks are column-major, FFTW-MPI's TRANSPOSED_OUT layout: each
// column contiguous for its FFT.  With --chunks k > 1 it is pipelined: the
// rows are split into k bands, each its own (block,*) array and plan into
// its band of the column array (a wrapped view of it), so that the row FFTs
// of band j+1 run while band j is in flight (Plan::start / Request::wait);
// a band is a range of the column array's rows, so its local blocks are
// row-major there and the column FFTs stride across them (slower: FFTW's
// strided transforms).  The result (distributed by columns, natural order)
// is compared with serial FFTW, and the whole transform is timed against
// FFTW-MPI's own 2-D transform (FFTW_MEASURE, TRANSPOSED_OUT so that
// neither transposes back) in the same run.  With --node-shared the column
// array lives in node-shared memory, which the shared engine fills in one
// pass (each rank writes its part straight into the others' columns).
//
//   mpiexec -n 4 fft2d [--n 1024] [--chunks 1] [--reps 10] [--exchange auto] [--node-shared]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/fftw_mpi.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <fftw3-mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using distarray::index_t;
using cplx = std::complex<double>;
using Rows = distarray::DistArray<cplx, 2, Kokkos::HostSpace>;

fftw_complex* as_fftw(cplx* p) { return reinterpret_cast<fftw_complex*>(p); }

/// Test input: smooth plus a deterministic pseudo-random part.
cplx input(index_t i, index_t j, index_t n) {
  const double x = double(i) / double(n), y = double(j) / double(n);
  const double r = double((i * 7919 + j * 104729) % 1009) / 1009.0;
  return {std::sin(6.28318530717958 * x) + r, std::cos(12.5663706143592 * y) - 0.5 * r};
}

/// The distributed transform: rows and transpose band by band, overlapped,
/// then the columns, whose local blocks are stored in `Order` (LayoutLeft:
/// one band only).
template <class Order>
class Fft2d {
 public:
  static constexpr bool column_major = std::is_same_v<Order, Kokkos::LayoutLeft>;
  using Columns = distarray::DistArray<cplx, 2, Kokkos::HostSpace, Order>;

  Fft2d(index_t n, int p, int chunks, const distarray::PlanOptions& options, bool node_shared)
      : cols_(
            columns(distarray::Layout<2>::parse("*,block on 1x" + std::to_string(p), {n, n}), node_shared)) {
    const int len = int(n);
    const index_t ncols = cols_.local_extents()[1];
    for (int j = 0; j < chunks; ++j) {
      const index_t first = n * j / chunks, rows = n * (j + 1) / chunks - first;
      first_row_.push_back(first);
      const auto from = distarray::Layout<2>::parse("block,* on " + std::to_string(p) + "x1", {rows, n});
      const auto to = distarray::Layout<2>::parse("*,block on 1x" + std::to_string(p), {rows, n});
      bands_.emplace_back(from, MPI_COMM_WORLD);
      // Band j of the columns: rows [first, first + rows) of the row-major local block (all of it: first = 0
      // where there is one band).
      targets_.push_back(Columns::wrap(to, MPI_COMM_WORLD, cols_.local().data() + first * ncols));
      transposes_.push_back(std::make_unique<Plan>(from, to, MPI_COMM_WORLD, options));
      // Along rows: the band's local rows, n contiguous elements each, in place.
      cplx* band = bands_.back().local().data();
      row_plans_.push_back(fftw_plan_many_dft(1, &len, int(bands_.back().local_extents()[0]), as_fftw(band),
                                              nullptr, 1, len, as_fftw(band), nullptr, 1, len, FFTW_FORWARD,
                                              FFTW_MEASURE));
    }
    // Along columns: ncols transforms of n elements, in place: contiguous, n apart (column-major), or
    // ncols apart, interleaved (row-major).
    const int stride = column_major ? 1 : int(ncols), distance = column_major ? len : 1;
    cplx* const c = cols_.local().data();
    col_plan_ = fftw_plan_many_dft(1, &len, int(ncols), as_fftw(c), nullptr, stride, distance, as_fftw(c),
                                   nullptr, stride, distance, FFTW_FORWARD, FFTW_MEASURE);
  }
  ~Fft2d() {
    for (fftw_plan plan : row_plans_) fftw_destroy_plan(plan);
    fftw_destroy_plan(col_plan_);
  }

  /// The input, band by band: f(i, j) at global row i, column j.
  template <class F>
  void fill(F&& f) {
    for (std::size_t b = 0; b < bands_.size(); ++b)
      bands_[b].fill([&](const distarray::Index<2>& g) { return f(first_row_[b] + g[0], g[1]); });
  }
  const Columns& output() const { return cols_; }
  /// The first band's plan, for its report.
  const distarray::PlanReport& report() const { return transposes_.front()->report(); }

  void execute() {
    distarray::Request in_flight;  // one band on its way at a time
    for (std::size_t b = 0; b < bands_.size(); ++b) {
      if (bands_[b].local_size() > 0) fftw_execute(row_plans_[b]);  // while band b - 1 travels
      in_flight.wait();
      in_flight = transposes_[b]->start(bands_[b], targets_[b]);
    }
    in_flight.wait();
    if (cols_.local_size() > 0) fftw_execute(col_plan_);
  }

 private:
  using Plan = distarray::Plan<cplx, 2, Kokkos::HostSpace, Kokkos::LayoutRight, Order>;
  static Columns columns(const distarray::Layout<2>& layout, bool node_shared) {
    return node_shared ? Columns(layout, MPI_COMM_WORLD, distarray::node_shared)
                       : Columns(layout, MPI_COMM_WORLD);
  }
  Columns cols_;
  std::vector<index_t> first_row_;
  std::vector<Rows> bands_;
  std::vector<Columns> targets_;
  std::vector<std::unique_ptr<Plan>> transposes_;
  std::vector<fftw_plan> row_plans_;
  fftw_plan col_plan_;
};

/// `fft` (of n x n, in `chunks` bands) against serial FFTW, then timed against FFTW-MPI.
template <class Fft>
int check_and_time(Fft& fft, index_t n, int chunks, int reps) {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  // Correctness: one transform against serial FFTW of the same input.
  const auto fill = [&] { fft.fill([n](index_t i, index_t j) { return input(i, j, n); }); };
  fill();
  fft.execute();
  const std::vector<cplx> out = fft.output().gather(0);
  int ok = 1;
  if (me == 0) {
    std::vector<cplx> serial(std::size_t(n * n));
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) serial[std::size_t(i * n + j)] = input(i, j, n);
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
    std::printf(
        "2-D FFT %ldx%ld on %d ranks, %d band%s, %s columns: max relative difference from serial FFTW "
        "%.2e (%s)\n",
        long(n), long(n), p, chunks, chunks == 1 ? "" : "s", Fft::column_major ? "column-major" : "row-major",
        rel, ok ? "ok" : "TOO LARGE");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);

  // Timing: distarray's transpose between FFTW row and column transforms...
  // (The input filled again before each transform, untimed: the FFTs work in place.)
  const double ours =
      distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, fill, [&] { fft.execute(); });
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
  const double theirs = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, fill_fftw,
                                                                   [&] { fftw_execute(mpi_plan); });
  fftw_destroy_plan(mpi_plan);
  fftw_free(data);
  if (me == 0)
    std::printf(
        "time per transform (median of %d, the input filled untimed before each): distarray + FFTW %.3f ms, "
        "FFTW-MPI %.3f ms, FFTW-MPI / distarray %.2f\n",
        reps, ours * 1e3, theirs * 1e3, theirs / ours);
  // (0 unpacks: the shared engine's one pass into node-shared columns.)
  const distarray::PlanReport& report = fft.report();
  if (me == 0)
    std::printf("transposes: exchange %s, %d unpack launches per band\n", report.exchange.c_str(),
                report.unpack_launches);
  return ok ? 0 : 1;
}

int run(int argc, char** argv) {
  const distarray::support::Options args(argc, argv, {"n", "chunks", "reps", "exchange"}, {"node-shared"});
  const index_t n = args.integer("n", 1024, 1);
  const int reps = int(args.integer("reps", 10, 1, INT_MAX)), chunks = int(args.integer("chunks", 1));
  if (chunks < 1 || chunks > n) throw distarray::UsageError("--chunks must be between 1 and --n");
  distarray::PlanOptions options;
  options.exchange = distarray::parse_exchange_engine(args.text("exchange", "auto"));
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (chunks == 1) {
    Fft2d<Kokkos::LayoutLeft> fft(n, p, chunks, options, args.has("node-shared"));
    return check_and_time(fft, n, chunks, reps);
  }
  Fft2d<Kokkos::LayoutRight> fft(n, p, chunks, options, args.has("node-shared"));
  return check_and_time(fft, n, chunks, reps);
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("fft2d", argc, argv, [](int count, char** words) {
    const distarray::support::FftwMpi fftw;
    return run(count, words);
  });
}
