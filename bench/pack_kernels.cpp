// Pack and unpack kernel throughput against a copy of the same bytes in
// the same memory space, in one run: rank 0's sides of a P-rank exchange of
// an N x N array (default N = 2048, P = 4; --type any of core/element_types.hpp, default f64), on this
// process's Kokkos execution space and its default memory space (device memory on a GPU).
//   contiguous   (block,*) -> (*,block), both row-major: runs of N/P elements
//   short runs   (*,cyclic(16)) -> (*,block), row-major: runs of 16 elements
//   transposing  (block,*) row-major -> (*,block) column-major: the pack is a
//                local transpose (cache tiles)
//   one row      (block,*) -> (*,block) on one rank: the whole array one
//                merged row, which only run chunks spread over the threads
// The pack is timed with the send table, the unpack with the receive table
// (as in a plan).  "copy" is Kokkos::deep_copy of the same bytes between two
// views of the memory space: what the memory system gives (a device-to-device
// copy on a GPU, every thread on OpenMP).  The three take turns in each round
// and each reports its median.  Run it at each thread count on a
// quiet machine, e.g.
//   for t in 1 2; do OMP_NUM_THREADS=$t OMP_WAIT_POLICY=active \
//     build-openmp/bench/bench_pack_kernels --json docs/bench/pack_kernels_${t}t.json; done
// (bench/tables.py makes docs/performance.md's table of the two records).
// Each pack and unpack is one kernel launch over the side's messages.
// (OMP_WAIT_POLICY=passive, right when ranks x threads oversubscribe the
// cores, wakes sleeping threads at every launch.)
// Prints a table and, with --json FILE, the same as a record (support/json_record.hpp).

#include <distarray/core.hpp>
#include <distarray/redist/detail/kernels/packer.hpp>
#include <distarray/redist/detail/tables/plan_tables.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/options.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using Space = Kokkos::DefaultExecutionSpace::memory_space;

/// The median seconds of each of `fs` over `reps` rounds, one call of each
/// per round: what the machine does to one, it does to the others alike
/// (a ratio of medians taken one after another moved by 0.1-0.2 here).
template <std::size_t N>
std::array<double, N> seconds_of(int reps, const std::array<std::function<void()>, N>& fs) {
  std::array<std::vector<double>, N> t;
  for (int i = 0; i < reps; ++i)
    for (std::size_t k = 0; k < N; ++k) {
      Kokkos::fence();
      const auto start = std::chrono::steady_clock::now();
      fs[k]();
      Kokkos::fence();
      t[k].push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  std::array<double, N> medians;
  for (std::size_t k = 0; k < N; ++k) {
    std::sort(t[k].begin(), t[k].end());
    medians[k] = t[k][t[k].size() / 2];
  }
  return medians;
}

struct Row {
  std::string name;
  double bytes, pack, unpack, copy;
};

template <class T>
Row measure(const std::string& name, const std::string& from_text, const std::string& to_text,
            StorageOrder dest_order, index_t n, int reps) {
  const auto from = Layout<2>::parse(from_text, {n, n});
  const auto to = Layout<2>::parse(to_text, {n, n});
  const auto rank_of_to = [&](const Coord<2>& c) { return to.grid().rank_of(c); };
  const auto rank_of_from = [&](const Coord<2>& c) { return from.grid().rank_of(c); };
  const auto [send, receive] =
      detail::exchange_tables<2>(from, to, Coord<2>{0, 0}, Coord<2>{0, 0}, ScheduleMethod::automatic,
                                 rank_of_from, rank_of_to, true, {StorageOrder::row_major, dest_order});
  const detail::Packer<T, Space> packer(send), unpacker(receive);
  const auto view = [](const char* label, index_t size) {
    return Kokkos::View<T*, Space>(std::string(label), std::size_t(size));
  };
  const auto source = view("bench::source", element_count(from.local_extents(Coord<2>{0, 0})));
  const auto destination = view("bench::destination", element_count(to.local_extents(Coord<2>{0, 0})));
  const auto send_buffer = view("bench::send", send.total),
             receive_buffer = view("bench::receive", receive.total);
  const auto copy = view("bench::copy", send.total);
  Kokkos::deep_copy(source, T(1));
  Kokkos::deep_copy(receive_buffer, T(1));
  const auto pack = [&] { packer.copy_all(source.data(), send_buffer.data(), true); };
  const auto unpack = [&] { unpacker.copy_all(destination.data(), receive_buffer.data(), false); };
  Row r{name, double(send.total) * sizeof(T), 0, 0, 0};
  pack();  // warm-up: pages touched
  unpack();
  const auto copy_bytes = [&] { Kokkos::deep_copy(copy, send_buffer); };
  const auto [pack_s, unpack_s, copy_s] = seconds_of<3>(reps, {pack, unpack, copy_bytes});
  r.pack = pack_s;
  r.unpack = unpack_s;
  r.copy = copy_s;
  return r;
}

constexpr int ranks = 4;  // P: rank 0's sides of a P-rank exchange

template <class T>
std::vector<Row> measure_all(index_t n, int reps) {
  const std::string ps = std::to_string(ranks);
  return {measure<T>("contiguous", "block,* on " + ps + "x1", "*,block on 1x" + ps, StorageOrder::row_major,
                     n, reps),
          measure<T>("short runs (16)", "*,cyclic(16) on 1x" + ps, "*,block on 1x" + ps,
                     StorageOrder::row_major, n, reps),
          measure<T>("transposing", "block,* on " + ps + "x1", "*,block on 1x" + ps,
                     StorageOrder::column_major, n, reps),
          measure<T>("one row", "block,* on 1x1", "*,block on 1x1", StorageOrder::row_major, n, reps)};
}

}  // namespace

int run(int argc, char** argv) {
  index_t n = 2048;
  int reps = 21;
  const support::Options args(argc, argv, {"size", "type", "json"});
  n = args.integer("size", n, 1);
  const std::string json = args.text("json");
  const std::string type = args.text("type", "f64");
  const std::vector<Row> rows = with_element_type(type, [&]<class T>() { return measure_all<T>(n, reps); });
  const int threads = Kokkos::DefaultExecutionSpace().concurrency();
  std::printf("pack kernels: %lldx%lld %s, rank 0 of %d, %s (%s) with %d thread%s, median of %d\n",
              (long long)n, (long long)n, type.c_str(), ranks, Kokkos::DefaultExecutionSpace::name(),
              Space::name(), threads, threads == 1 ? "" : "s", reps);
  std::printf("%-16s %6s %10s %12s %10s %10s %12s\n", "case", "MiB", "pack GB/s", "unpack GB/s", "copy GB/s",
              "pack/copy", "unpack/copy");
  support::JsonRecord record("bench_pack_kernels", argc, argv, MPI_COMM_WORLD);
  record.note("space", Kokkos::DefaultExecutionSpace::name());
  record.note("threads", double(threads));
  record.note("n", double(n));
  record.note("type", type);
  for (const Row& r : rows) {
    std::printf("%-16s %6.1f %10.2f %12.2f %10.2f %10.2f %12.2f\n", r.name.c_str(), r.bytes / (1 << 20),
                r.bytes / r.pack / 1e9, r.bytes / r.unpack / 1e9, r.bytes / r.copy / 1e9, r.copy / r.pack,
                r.copy / r.unpack);
    record.row()
        .set("case", r.name)
        .set("bytes", r.bytes)
        .set("pack_s", r.pack)
        .set("unpack_s", r.unpack)
        .set("copy_s", r.copy);
  }
  record.write(json);
  return 0;
}

int main(int argc, char** argv) { return support::driver_main("bench_pack_kernels", argc, argv, run); }
