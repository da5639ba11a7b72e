// One pass into a peer's memory, measured before it is built (issue 52's
// variants).  For the 2-D transpose block,* -> *,block of N x N doubles on P
// ranks of one node, the `shared` engine (two passes: each message packed
// into its receiver's window, then unpacked there) against
//  - cma: process_vm_writev of the source rows' runs straight into each
//    peer's private destination block (a row-major destination only: there
//    the runs are a block's width on both sides; into a column-major block
//    they are single elements);
//  - node-shared: destination blocks in an MPI-3 shared window, each rank
//    copying its part straight into every block with the library's host
//    kernels' streamed stores (host_streams.hpp, host_squares.hpp): a
//    streamed line per run into a row-major block, transposed squares into
//    a column-major one);
//  - floor: one MPI_Alltoallv of pre-packed buffers.
// cma and node-shared include a barrier before (every destination free) and
// one after (every destination written), as an engine would need.  Each
// result is checked.  Medians over repetitions of the slowest rank.
//
//   mpiexec -n 4 build/bench/bench_one_pass [--size 4096] [--reps 15]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/redist/detail/kernels/host_squares.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using support::median_slowest_seconds;

MPI_Comm world = MPI_COMM_WORLD;

struct Shape {
  index_t n, h, w;  // N; source rows per rank; destination columns per rank
  int me, ranks;
};

/// The source block: rank me's rows, each element its global row-major index.
std::vector<double> source_rows(const Shape& s) {
  std::vector<double> src(std::size_t(s.h * s.n));
  for (index_t i = 0; i < s.h; ++i)
    for (index_t j = 0; j < s.n; ++j) src[std::size_t(i * s.n + j)] = double((s.me * s.h + i) * s.n + j);
  return src;
}

/// Destination elements of rank me that are wrong (row-major or column-major).
long wrong(const Shape& s, const double* dst, bool column_major) {
  long bad = 0;
  for (index_t r = 0; r < s.n; ++r)
    for (index_t c = 0; c < s.w; ++c)
      bad += dst[column_major ? c * s.n + r : r * s.w + c] != double(r * s.n + s.me * s.w + c);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, world);
  return bad;
}

double floor_seconds(const Shape& s, int reps) {
  const std::size_t p = std::size_t(s.ranks);
  std::vector<int> count(p, int(s.h * s.w * 8)), displ(p);
  for (std::size_t q = 0; q < p; ++q) displ[q] = int(q) * count[q];
  std::vector<char> send(std::size_t(s.h * s.n * 8), 1), recv(send.size());
  const auto exchange = [&] {
    MPI_Alltoallv(send.data(), count.data(), displ.data(), MPI_BYTE, recv.data(), count.data(), displ.data(),
                  MPI_BYTE, world);
  };
  exchange();
  return median_slowest_seconds(world, reps, exchange);
}

template <class DestOrder>
double shared_engine_seconds(const Shape& s, int reps) {
  const std::string p = std::to_string(s.ranks);
  const auto from = Layout<2>::parse("block,* on " + p + "x1", {s.n, s.n});
  const auto to = Layout<2>::parse("*,block on 1x" + p, {s.n, s.n});
  DistArray<double, 2, Kokkos::HostSpace> a(from, world);
  DistArray<double, 2, Kokkos::HostSpace, DestOrder> b(to, world);
  a.fill([&](const Index<2>& g) { return double(g[0] * s.n + g[1]); });
  PlanOptions options;
  options.exchange = ExchangeEngine::shared;
  Plan<double, 2, Kokkos::HostSpace, Kokkos::LayoutRight, DestOrder> plan(from, to, world, options);
  plan.execute(a, b);
  plan.execute(a, b);
  return median_slowest_seconds(world, reps, [&] { plan.execute(a, b); });
}

/// Row-major destination, private: the source rows' runs written into each
/// peer's block by process_vm_writev; 0 where the kernel refuses (ptrace policy).
double cma_seconds(const Shape& s, int reps) {
  std::vector<double> src = source_rows(s), dst(std::size_t(s.n * s.w));
  const long mine[2] = {long(getpid()), long(reinterpret_cast<std::uintptr_t>(dst.data()))};
  std::vector<long> all(2 * std::size_t(s.ranks));
  MPI_Allgather(mine, 2, MPI_LONG, all.data(), 2, MPI_LONG, world);
  int refused = 0;
  const auto write_all = [&] {
    MPI_Barrier(world);
    std::vector<iovec> local(IOV_MAX), remote(IOV_MAX);
    const std::size_t run = std::size_t(s.w) * 8;
    for (int q = 0; q < s.ranks; ++q) {
      auto* peer = reinterpret_cast<double*>(all[2 * std::size_t(q) + 1]);
      for (index_t i0 = 0; i0 < s.h; i0 += IOV_MAX) {
        const index_t rows = std::min<index_t>(IOV_MAX, s.h - i0);
        for (index_t k = 0; k < rows; ++k) {
          local[std::size_t(k)] = {&src[std::size_t((i0 + k) * s.n + q * s.w)], run};
          remote[std::size_t(k)] = {peer + (s.me * s.h + i0 + k) * s.w, run};
        }
        if (q == s.me) {
          for (index_t k = 0; k < rows; ++k)
            std::memcpy(remote[std::size_t(k)].iov_base, local[std::size_t(k)].iov_base, run);
        } else if (process_vm_writev(pid_t(all[2 * std::size_t(q)]), local.data(), rows, remote.data(), rows,
                                     0) != ssize_t(run) * rows) {
          refused = 1;
        }
      }
    }
    MPI_Barrier(world);
  };
  write_all();
  MPI_Allreduce(MPI_IN_PLACE, &refused, 1, MPI_INT, MPI_MAX, world);
  if (refused) return 0;
  if (wrong(s, dst.data(), false)) throw Error("cma wrote wrong elements");
  return median_slowest_seconds(world, reps, write_all);
}

/// Destination blocks in one shared window: each rank copies its part into
/// every block itself.
double node_shared_seconds(const Shape& s, int reps, bool column_major) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  double* mine = nullptr;
  MPI_Win win;
  MPI_Win_allocate_shared(MPI_Aint(s.n * s.w * 8 + 64), 8, info, world, &mine, &win);
  MPI_Info_free(&info);
  // Each block from the first 64-byte boundary of its segment (Open MPI's
  // segments start 8-byte aligned; a segment's offset within its pages is
  // the same in every process that maps it).
  const auto aligned = [](double* p) { return p + (64 - reinterpret_cast<std::uintptr_t>(p) % 64) % 64 / 8; };
  mine = aligned(mine);
  std::vector<double*> block(std::size_t(s.ranks));
  for (int q = 0; q < s.ranks; ++q) {
    MPI_Aint bytes;
    int unit;
    MPI_Win_shared_query(win, q, &bytes, &unit, &block[std::size_t(q)]);
    block[std::size_t(q)] = aligned(block[std::size_t(q)]);
  }
  const std::vector<double> src = source_rows(s);
  constexpr index_t S = detail::square_side<double>;
  const bool stream = s.n % 8 == 0 && s.h % 8 == 0;
  const auto write_all = [&] {
    MPI_Barrier(world);
    for (int q = 0; q < s.ranks; ++q) {
      double* dst = block[std::size_t(q)];
      const double* from = &src[std::size_t(q * s.w)];
      if (!column_major) {
        for (index_t i = 0; i < s.h; ++i)
          detail::stream_line<double>(dst + (s.me * s.h + i) * s.w, s.w,
                                      detail::Spaced<double>{from + i * s.n, 1});
        continue;
      }
      // The library's transposed squares (host_squares.hpp), streamed where
      // the lines are 64-byte aligned;
      // the ragged edges element by element.
      const index_t hs = s.h / S * S, ws = s.w / S * S;
      for (index_t i0 = 0; i0 < hs; i0 += S)
        for (index_t j0 = 0; j0 < ws; j0 += S)
          detail::copy_square_transposed<double>(
              stream, {from + i0 * s.n + j0, s.n, dst + j0 * s.n + s.me * s.h + i0, s.n});
      for (index_t i = 0; i < s.h; ++i)
        for (index_t j = i < hs ? ws : 0; j < s.w; ++j) dst[j * s.n + s.me * s.h + i] = from[i * s.n + j];
    }
    detail::stream_fence();
    MPI_Barrier(world);
  };
  write_all();
  if (wrong(s, mine, column_major)) throw Error("node-shared wrote wrong elements");
  const double seconds = median_slowest_seconds(world, reps, write_all);
  MPI_Win_free(&win);
  return seconds;
}

}  // namespace

int run(int argc, char** argv) {
  const support::Options args(argc, argv, {"size", "reps"});
  Shape s{args.integer("size", 4096, 1), 0, 0, 0, 1};
  const int reps = int(args.integer("reps", 15, 1, INT_MAX));
  MPI_Comm_rank(world, &s.me);
  MPI_Comm_size(world, &s.ranks);
  MPI_Comm node;
  MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  if (node_size != s.ranks) throw UsageError("every rank must share one node");
  if (s.n % s.ranks) throw UsageError("--size must be a multiple of the rank count");
  s.h = s.w = s.n / s.ranks;

  const double floor = floor_seconds(s, reps);
  const double shared_row = shared_engine_seconds<Kokkos::LayoutRight>(s, reps);
  const double cma = cma_seconds(s, reps);
  const double node_row = node_shared_seconds(s, reps, false);
  const double shared_col = shared_engine_seconds<Kokkos::LayoutLeft>(s, reps);
  const double node_col = node_shared_seconds(s, reps, true);
  if (s.me != 0) return 0;
  std::printf("%d ranks, %ldx%ld f64 transpose, median of %d (slowest rank), ms (/floor)\n", s.ranks,
              long(s.n), long(s.n), reps);
  const auto cell = [&](double t) {
    if (t == 0) return std::printf("  %-16s", "refused");
    return std::printf("  %7.3f (%5.2f)  ", t * 1e3, t / floor);
  };
  std::printf("%-14s  %-16s  %-16s  %-16s  %-16s\n", "destination", "floor", "shared engine", "cma",
              "node-shared");
  std::printf("%-14s", "row-major");
  for (double t : {floor, shared_row, cma, node_row}) cell(t);
  std::printf("\n%-14s", "column-major");
  cell(floor), cell(shared_col), std::printf("  %-16s", "n/a (runs of 1)"), cell(node_col);
  std::printf("\n");
  return 0;
}

int main(int argc, char** argv) { return distarray::support::driver_main("bench_one_pass", argc, argv, run); }
