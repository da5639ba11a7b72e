// What verifying a checkpoint costs on this machine, without HDF5: the most a
// verified restore can reach against a bare read of the same bytes.  Each
// rank reads a file of its own (its share of --mib, 4096 doubles a row) into
// its block of a `block,*` array, three ways, warm (the file in the page
// cache) and cold (its pages dropped first):
//   bare          one pread of the whole file (what a bare H5Dread of
//                 contiguous rows comes down to)
//   bands         pread in 1 MiB bands, nothing else (io/detail/transfer/slab_transfer.hpp)
//   bands + hash  each band hashed with format 3's sums right after it was
//                 read, while it is in cache, as a verified restore does
// and each checksum kernel alone on one band in cache.  All ranks run at once,
// so the figures include what they take from each other; slowest rank,
// median of --reps.  Every verified restore reads and hashes each byte, so
// bare / (bands + hash) bounds the ratio of a verified same-layout restore
// in bench_checkpoint_io on the same machine (where the hash cannot overlap
// the read, as when ranks fill the cores).
//
//   mpiexec -n 4 build/bench/bench_checksum_floor [--mib 256] [--reps 5] [--dir /tmp] [--json FILE]

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <distarray/io/detail/checksum/keyed_row_kernels.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>
#include "io_bench_args.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace {

using namespace distarray;
using Array = DistArray<double, 2>;

/// Reads `bytes` at `offset` of `fd` into `to`, all of them.
void read_fully(int fd, void* to, std::size_t bytes, std::size_t offset) {
  auto* p = static_cast<char*>(to);
  while (bytes) {
    const ssize_t got = pread(fd, p, bytes, off_t(offset));
    if (got <= 0) throw std::runtime_error("bench_checksum_floor: short read");
    p += got;
    offset += std::size_t(got);
    bytes -= std::size_t(got);
  }
}

double gbps(std::size_t bytes, double seconds) { return double(bytes) / seconds / 1e9; }

int run(int argc, char** argv) {
  int size = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const IoBenchArgs args = parse_io_bench_args(argc, argv, {.reps = 5, .dir = "/tmp"});
  const index_t mib = args.mib, cols = args.shape()[1];
  const int reps = args.reps;
  distarray::support::JsonRecord record("bench_checksum_floor", argc, argv, MPI_COMM_WORLD);
  record.note("unit", "seconds");
  record.note("bytes", double(std::size_t(mib) << 20));
  Array a(Layout<2>::parse("block,* on " + std::to_string(size) + "x1", args.shape()), MPI_COMM_WORLD);
  const std::size_t row_bytes = std::size_t(cols) * 8, bytes = std::size_t(a.local_size()) * 8;
  const index_t band_rows = index_t(detail::band_bytes / row_bytes);
  a.fill([](const Index<2>& g) { return double(g[0] * 7 + g[1]); });
  const std::string path = args.dir + "/bench_floor_" + std::to_string(me) + ".bin";
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || write(fd, a.local().data(), bytes) != ssize_t(bytes) || fsync(fd) != 0)
    throw std::runtime_error("bench_checksum_floor: cannot write " + path);
  const detail::KeyedSummer<double, 2> summer(a.layout(), *a.grid().coord());
  const detail::KeyedSums expected = summer(a.local().data());
  const auto read_bands = [&](bool hashed) {
    detail::KeyedSums sums;
    for (index_t first = 0; first < a.local_extents()[0]; first += band_rows) {
      const detail::LocalRows band{first, std::min(band_rows, a.local_extents()[0] - first)};
      read_fully(fd, a.local().data() + first * cols, std::size_t(band.count) * row_bytes,
                 std::size_t(first) * row_bytes);
      if (hashed) sums += summer(a.local().data(), band);
    }
    if (hashed && (sums.set0 != expected.set0 || sums.set1 != expected.set1))
      throw std::runtime_error("bench_checksum_floor: the banded sums differ from the whole block's");
  };
  if (me == 0)
    std::printf("%d ranks, %ld MiB in all, median of %d, slowest rank, GB/s in all\n%-6s %8s %8s %12s %14s\n",
                size, long(mib), reps, "", "bare", "bands", "bands+hash", "bare/(b+hash)");
  for (bool cold : {false, true}) {
    const auto before = [&] {
      if (cold) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    };
    const double bare = distarray::support::median_slowest_seconds(
        MPI_COMM_WORLD, reps, before, [&] { read_fully(fd, a.local().data(), bytes, 0); });
    const double bands =
        distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, before, [&] { read_bands(false); });
    const double hashed =
        distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, before, [&] { read_bands(true); });
    const std::size_t all = std::size_t(mib) << 20;
    if (me == 0)
      std::printf("%-6s %8.2f %8.2f %12.2f %14.2f\n", cold ? "cold" : "warm", gbps(all, bare),
                  gbps(all, bands), gbps(all, hashed), bare / hashed);
    record.row()
        .set("read", cold ? "cold" : "warm")
        .set("bare_s", bare)
        .set("bands_s", bands)
        .set("bands_hash_s", hashed);
  }
  // Each kernel on one band in cache (the keys of the first rows; any keys cost the same).
  const std::vector<std::uint64_t> keys(std::size_t(cols), 0x9E3779B97F4A7C15ULL);
  const auto* band = reinterpret_cast<const unsigned char*>(a.local().data());
  const index_t hashed_rows = std::min(band_rows, a.local_extents()[0]);
  for (const auto& kernel : detail::keyed_row_kernels()) {
    detail::KeyedSums sums;
    const int passes = 512;  // 512 MiB per rank: long enough for the ranks to share the cores
    const double t = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] {
      for (int pass = 0; pass < passes; ++pass)
        for (index_t r = 0; r < hashed_rows; ++r)
          kernel.add(band + std::size_t(r) * row_bytes, cols, 8, std::uint64_t(r), std::uint64_t(pass),
                     keys.data(), keys.data(), sums);
    });
    const std::size_t kernel_bytes = std::size_t(passes * hashed_rows) * row_bytes;
    if (me == 0)
      std::printf("kernel %-9s %6.1f GB/s per rank in cache (%d ranks at once; sums %016llx)\n", kernel.name,
                  gbps(kernel_bytes, t), size, static_cast<unsigned long long>(sums.set0 ^ sums.set1));
    record.row().set("kernel", kernel.name).set("bytes_per_rank", double(kernel_bytes)).set("seconds", t);
  }
  record.write(args.json);
  close(fd);
  unlink(path.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_checksum_floor", argc, argv, run);
}
