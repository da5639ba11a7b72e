// A 2-D block-cyclic matrix moved from a producer grid to a consumer grid of
// another shape, block size and rank range — the job of ScaLAPACK's pdgemr2d.
// Both pdgemr2d and a distarray plan move the same matrix; the results are
// compared element by element and both are timed (median, slowest rank).
// The distarray side wraps ScaLAPACK's local arrays without copying
// (distarray/scalapack/descriptor.hpp explains the transpose that makes this possible).
//
//   mpiexec -n 4 grid_to_grid [--m 2000] [--n 1500] [--reps 10]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/scalapack/descriptor.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

extern "C" {
void Cblacs_pinfo(int* me, int* nprocs);
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int keep_mpi);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* context, const int* lld, int* info);
}

namespace {

using distarray::index_t;
using distarray::scalapack::DTYPE_;
using distarray::scalapack::M_;
using Array = distarray::DistArray<double, 2, Kokkos::HostSpace>;

/// A BLACS grid nprow x npcol in column-major order on ranks first.., with
/// this rank's descriptor and local array of an m x n matrix in mb x nb blocks.
struct ScalapackMatrix {
  int context = -1, nprow, npcol, first, myrow = -1, mycol = -1;
  int desc[9] = {0, -1, 0, 0, 1, 1, 0, 0, 1};  // outside the grid: context -1, as pdgemr2d expects
  std::vector<double> local;

  ScalapackMatrix(int m, int n, int mb, int nb, int rows, int cols, int first_rank)
      : nprow(rows), npcol(cols), first(first_rank) {
    std::vector<int> map(static_cast<std::size_t>(rows * cols));
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r) map[std::size_t(r + c * rows)] = first + c * rows + r;
    Cblacs_get(0, 0, &context);
    Cblacs_gridmap(&context, map.data(), rows, rows, cols);
    if (context < 0) return;  // not in this grid
    int pr = 0, pc = 0;
    Cblacs_gridinfo(context, &pr, &pc, &myrow, &mycol);
    const int zero = 0;
    const int locr = numroc_(&m, &mb, &myrow, &zero, &nprow), locc = numroc_(&n, &nb, &mycol, &zero, &npcol);
    const int lld = std::max(1, locr);
    int info = 0;
    descinit_(desc, &m, &n, &mb, &nb, &zero, &zero, &context, &lld, &info);
    local.assign(std::size_t(std::max(1, locr * locc)), 0.0);
  }
  ~ScalapackMatrix() {
    if (context >= 0) Cblacs_gridexit(context);
  }

  /// The same matrix as a DistArray over the local array (the transpose, row-major).
  Array wrap() {
    const distarray::Layout<2> layout = distarray::scalapack::scalapack_layout(desc, nprow, npcol, first);
    const Array a = Array::wrap(layout, MPI_COMM_WORLD, local.data());
    if (context >= 0) distarray::scalapack::check_scalapack_lld(desc, layout, a.grid().coord());
    return a;
  }
};

int run(int argc, char** argv) {
  const distarray::support::Options args(argc, argv, {"m", "n", "reps"});
  const int m = int(args.integer("m", 2000, 1, INT_MAX)), n = int(args.integer("n", 1500, 1, INT_MAX));
  const int reps = int(args.integer("reps", 10, 1, INT_MAX));
  int me = 0, p = 1;
  Cblacs_pinfo(&me, &p);
  // Producer: near-square grid on every rank, 32 x 32 blocks.  Consumer: a
  // 1 x (p-1) grid on ranks 1.. (all ranks on one), 20 x 48 blocks.
  int rows = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) rows = d;
  const int consumer_first = p > 1 ? 1 : 0, consumer_cols = p > 1 ? p - 1 : 1;
  ScalapackMatrix a(m, n, 32, 32, rows, p / rows, 0);
  ScalapackMatrix b(m, n, 20, 48, 1, consumer_cols, consumer_first);
  ScalapackMatrix c(m, n, 20, 48, 1, consumer_cols, consumer_first);  // distarray's result
  // Every rank needs each matrix's shape and blocking for the layouts; ranks
  // outside a grid take them from its first rank (their CTXT_ stays -1).
  for (ScalapackMatrix* x : {&a, &b, &c}) {
    MPI_Bcast(&x->desc[M_], 6, MPI_INT, x->first, MPI_COMM_WORLD);  // M_, N_, MB_, NB_, RSRC_, CSRC_
    x->desc[DTYPE_] = 1;
  }
  Array src = a.wrap(), dst = c.wrap();
  src.fill(
      [n](const distarray::Index<2>& g) { return double(g[1]) * n + double(g[0]); });  // A(i,j) = i*n + j
  int whole = 0;
  Cblacs_get(0, 0, &whole);
  std::vector<int> all(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) all[std::size_t(r)] = r;
  Cblacs_gridmap(&whole, all.data(), 1, 1, p);

  const double t_scalapack = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] {
    Cpdgemr2d(m, n, a.local.data(), 1, 1, a.desc, b.local.data(), 1, 1, b.desc, whole);
  });
  distarray::Plan<double, 2, Kokkos::HostSpace> plan(src.layout(), dst.layout(), MPI_COMM_WORLD);
  const double t_distarray =
      distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] { plan.execute(src, dst); });
  long differ = 0;
  if (b.context >= 0)
    for (std::size_t k = 0; k < b.local.size(); ++k) differ += b.local[k] != c.local[k];
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) {
    std::printf("%dx%d matrix: %dx%d grid, 32x32 blocks -> 1x%d grid on ranks %d.., 20x48 blocks; %d ranks\n",
                m, n, rows, p / rows, consumer_cols, consumer_first, p);
    std::printf("result equals pdgemr2d's element by element: %s\n",
                differ == 0 ? "yes" : (std::to_string(differ) + " elements differ").c_str());
    std::printf("median of %d: pdgemr2d %.3f ms, distarray %.3f ms (%s), pdgemr2d / distarray %.2f\n", reps,
                t_scalapack * 1e3, t_distarray * 1e3, plan.report().method.c_str(),
                t_scalapack / t_distarray);
  }
  Cblacs_gridexit(whole);
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const distarray::support::HelpAsked& help) {
    status = distarray::support::print_usage("grid_to_grid", help);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grid_to_grid: %s\n", e.what());
  }
  Cblacs_exit(1);  // keep MPI for distarray's Environment to finalize
  return status;
}
