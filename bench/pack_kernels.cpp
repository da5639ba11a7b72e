// Pack and unpack kernel throughput against memcpy of the same bytes, in one
// run: rank 0's side of a P-rank exchange of an N x N f64 array (default
// N = 2048, P = 4), on this process's Kokkos execution space.
//   contiguous   (block,*) -> (*,block), both row-major: runs of N/P elements
//   short runs   (*,cyclic(16)) -> (*,block), row-major: runs of 16 elements
//   transposing  (block,*) row-major -> (*,block) column-major: the pack is a
//                local transpose (cache tiles)
// Run it at each thread count to compare, on a quiet machine, e.g.
//   for t in 1 2; do OMP_NUM_THREADS=$t OMP_WAIT_POLICY=active \
//     build-openmp/bench/bench_pack_kernels --json docs/bench/pack_kernels_${t}t.json; done
// Each pack and unpack is one kernel launch over the side's messages, as in
// a plan.  (OMP_WAIT_POLICY=passive, right when ranks x threads oversubscribe
// the cores, wakes sleeping threads at every launch.)  "par. copy" is a plain
// parallel copy of the same bytes by every thread: what the memory system gives.
// Prints a table and, with --json FILE, the same as JSON.

#include <distarray/core.hpp>
#include <distarray/redist/detail/packer.hpp>
#include <distarray/redist/detail/plan_tables.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using Space = Kokkos::DefaultExecutionSpace::memory_space;

double seconds_of(int reps, const auto& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    Kokkos::fence();
    const auto start = std::chrono::steady_clock::now();
    f();
    Kokkos::fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Row {
  std::string name;
  double bytes, pack, unpack, memcpy, parallel_copy;
};

Row measure(const std::string& name, const std::string& from_text, const std::string& to_text,
            StorageOrder dest_order, index_t n, int reps) {
  const auto from = Layout<2>::parse(from_text, {n, n});
  const auto to = Layout<2>::parse(to_text, {n, n});
  const auto rank_of_to = [&](const Coord<2>& c) { return to.grid().rank_of(c); };
  const auto rank_of_from = [&](const Coord<2>& c) { return from.grid().rank_of(c); };
  const auto [table, unused] =
      detail::exchange_tables<2>(from, to, Coord<2>{0, 0}, std::nullopt, ScheduleMethod::automatic,
                                 rank_of_from, rank_of_to, false, {StorageOrder::row_major, dest_order});
  const detail::Packer<double, Space> packer(table);
  Kokkos::View<double*, Space> local("bench::local", std::size_t(table.total)),
      buffer("bench::buffer", std::size_t(table.total)), copy("bench::copy", std::size_t(table.total));
  Kokkos::deep_copy(local, 1.0);
  const auto all = [&](bool pack) { packer.copy_all(local.data(), {buffer.data()}, pack); };
  Row r{name, double(table.total) * sizeof(double), 0, 0, 0, 0};
  all(true);  // warm-up: pages touched
  r.pack = seconds_of(reps, [&] { all(true); });
  r.unpack = seconds_of(reps, [&] { all(false); });
  auto host_local = Kokkos::create_mirror_view(local);
  auto host_copy = Kokkos::create_mirror_view(copy);
  r.memcpy =
      seconds_of(reps, [&] { std::memcpy(host_copy.data(), host_local.data(), std::size_t(r.bytes)); });
  // The same bytes copied by every thread of the execution space: what the
  // memory system gives this thread count.
  r.parallel_copy = seconds_of(reps, [&] {
    const double* from = local.data();
    double* to = copy.data();
    Kokkos::parallel_for(
        "bench::parallel_copy", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, table.total),
        KOKKOS_LAMBDA(const index_t i) { to[i] = from[i]; });
  });
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Environment env(argc, argv);
  index_t n = 2048;
  int reps = 21;
  const int p = 4;
  std::string json;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--size")) n = std::atol(argv[i + 1]);
    if (!std::strcmp(argv[i], "--json")) json = argv[i + 1];
  }
  const std::string ps = std::to_string(p);
  const std::vector<Row> rows = {measure("contiguous", "block,* on " + ps + "x1", "*,block on 1x" + ps,
                                         StorageOrder::row_major, n, reps),
                                 measure("short runs (16)", "*,cyclic(16) on 1x" + ps, "*,block on 1x" + ps,
                                         StorageOrder::row_major, n, reps),
                                 measure("transposing", "block,* on " + ps + "x1", "*,block on 1x" + ps,
                                         StorageOrder::column_major, n, reps)};
  const int threads = Kokkos::DefaultExecutionSpace().concurrency();
  std::printf("pack kernels: %lldx%lld f64, rank 0 of %d, %s with %d thread%s, median of %d\n", (long long)n,
              (long long)n, p, Kokkos::DefaultExecutionSpace::name(), threads, threads == 1 ? "" : "s", reps);
  std::printf("%-16s %6s %10s %10s %10s %10s %12s %14s\n", "case", "MiB", "pack GB/s", "unpack GB/s",
              "memcpy", "par. copy", "pack/memcpy", "unpack/memcpy");
  std::ofstream out;
  if (!json.empty()) out.open(json);
  if (out) out << "[\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    std::printf("%-16s %6.1f %10.2f %10.2f %10.2f %10.2f %12.2f %14.2f\n", r.name.c_str(),
                r.bytes / (1 << 20), r.bytes / r.pack / 1e9, r.bytes / r.unpack / 1e9,
                r.bytes / r.memcpy / 1e9, r.bytes / r.parallel_copy / 1e9, r.memcpy / r.pack,
                r.memcpy / r.unpack);
    if (out)
      out << "  {\"case\": \"" << r.name << "\", \"threads\": " << threads << ", \"bytes\": " << r.bytes
          << ", \"pack_s\": " << r.pack << ", \"unpack_s\": " << r.unpack << ", \"memcpy_s\": " << r.memcpy
          << ", \"parallel_copy_s\": " << r.parallel_copy << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  if (out) out << "]\n";
  return 0;
}
