// Checkpoint save and restore against a bare parallel-HDF5 write and read of
// the same bytes, measured in the same run: each rank its contiguous rows as
// one hyperslab, H5Fclose (the code a user writes by hand; a write then
// fsyncs the file, as a checkpoint must be durable), with collective and with
// independent transfers; the ratio is against the faster of the two.
// Rows: a series step saved and restored in the same layout, restored into
// another layout on another rank count (also against bare reads of that
// layout's own hyperslabs: whole blocks, strided, in one selection), the
// single-array save (which reads its file back before the rename), restores
// that skip the checksum (RestoreOptions::verify_checksum), and
// shuffle+deflate on a smooth field and on random data (file size and time
// against uncompressed).
// Reads run twice: warm (the file in the page cache, as just written) and
// cold (its pages dropped first with posix_fadvise, as a restart on another
// node finds it).  Median of repetitions, slowest rank:
//   mpiexec -n 4 build/bench/bench_checkpoint_io [--mib 256] [--reps 3] [--dir .] [--json FILE]

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>
#include "bare_hdf5.hpp"
#include "io_bench_args.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

namespace {

using namespace distarray;

int rank() {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  return me;
}

/// Drops `path`'s pages from the page cache (rank 0, the ranks share a node).
void evict(const std::string& path) {
  if (rank() == 0) {
    const int fd = open(path.c_str(), O_RDONLY);
    fdatasync(fd);  // dirty pages are not dropped
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

double gbps(const Array& a, double seconds) { return double(a.layout().global_size() * 8) / seconds / 1e9; }

void row(support::JsonRecord& record, const std::string& what, double seconds, const Bare& bare,
         const Array& a) {
  const double floor = std::min(bare.collective, bare.independent);
  if (rank() == 0)
    std::printf("%-52s %7.3f %7.3f %7.3f %7.2f\n", what.c_str(), gbps(a, seconds), gbps(a, bare.collective),
                gbps(a, bare.independent), floor / seconds);
  record.row()
      .set("operation", what)
      .set("seconds", seconds)
      .set("bare_collective_s", bare.collective)
      .set("bare_independent_s", bare.independent);
}

int run(int argc, char** argv) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const IoBenchArgs args = parse_io_bench_args(argc, argv, {});
  const index_t mib = args.mib;
  const int reps = args.reps;
  const std::string dir = args.dir;
  const Index<2> shape = args.shape();
  const index_t rows = shape[0], cols = shape[1];
  support::JsonRecord record("bench_checkpoint_io", argc, argv, MPI_COMM_WORLD);
  record.note("unit", "seconds");
  record.note("bytes", double(rows * cols * 8));
  const std::string p = std::to_string(size), q = std::to_string(std::max(1, size - 1));
  const auto rows_layout = Layout<2>::parse("block,* on " + p + "x1", shape);
  Array a(rows_layout, MPI_COMM_WORLD), b(rows_layout, MPI_COMM_WORLD);
  Array other(Layout<2>::parse("cyclic(64),cyclic(64) on 1x" + q, shape), MPI_COMM_WORLD);
  const auto field = [](const Index<2>& g) {
    return std::sin(1e-3 * double(g[0])) * std::cos(2e-3 * double(g[1]));
  };
  a.fill(field);
  const auto check = [&](const Array& read, const char* what) {  // a baseline must read the right elements
    for (index_t i = 0; i < read.local_size(); ++i)
      if (read.local().data()[i] != field(read.global_index(read.local_index(i))))
        throw std::runtime_error(std::string(what) + " read wrong elements");
  };
  const std::string series = dir + "/bench_series.h5", bare = dir + "/bench_bare.h5",
                    plain = dir + "/bench_plain.h5";
  const auto remove = [&](const std::string& f) {
    return [f] {
      if (rank() == 0) std::filesystem::remove(f);
      MPI_Barrier(MPI_COMM_WORLD);
    };
  };
  std::uint64_t step = 0;
  const Bare bare_write = bare_times(reps, remove(bare), bare, a, true);
  const double step_write =
      distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, remove(series), [&] {
        Series s(series, MPI_COMM_WORLD);
        s.begin_step(++step, {{"time", 1.0}});
        s.write("a", a);
        s.commit_step();
      });
  const double plain_write = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, remove(plain),
                                                                        [&] { save(plain, "a", a); });
  if (rank() == 0) {
    std::printf("%d ranks, %ldx%ld doubles (%ld MiB), median of %d, slowest rank\n", size, long(rows),
                long(cols), long(mib), reps);
    std::printf("%-52s %7s %7s %7s %7s\n", "GB/s", "", "bare", "bare", "ratio");
    std::printf("%-52s %7s %7s %7s %7s\n", "", "", "coll.", "indep.", "(best)");
  }
  row(record, "series step save, block,*", step_write, bare_write, a);
  row(record, "single-array save with read-back", plain_write, bare_write, a);
  for (bool cold : {false, true}) {
    const auto before = [&](const std::string& f) {
      return [&, f] {
        if (cold) evict(f);
      };
    };
    const Bare bare_read = bare_times(reps, before(bare), bare, b, false);
    const auto restore_time = [&](Array& into, const RestoreOptions& options) {
      return distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, before(series), [&] {
        restore_step(series, "a", into, std::nullopt, options);
      });
    };
    const RestoreOptions unchecked{.verify_checksum = false};
    const double step_read = restore_time(b, {}), step_unchecked = restore_time(b, unchecked);
    const double other_read = restore_time(other, {}), other_unchecked = restore_time(other, unchecked);
    check(other, "restore_step into another layout");
    // What a user writes by hand: a read straight into that layout.
    const Bare bare_other = bare_times(reps, before(bare), bare, other, false);
    check(other, "the bare read into another layout");
    const std::string cache = cold ? "cold: " : "warm: ";
    row(record, cache + "series step restore, block,*", step_read, bare_read, a);
    row(record, cache + "  the same, checksum skipped", step_unchecked, bare_read, a);
    row(record, cache + "restore into cyclic(64),cyclic(64) on 1x" + q, other_read, bare_read, a);
    row(record, cache + "  the same, checksum skipped", other_unchecked, bare_read, a);
    row(record, cache + "  the same against bare reads into that layout", other_read, bare_other, a);
  }
  // Compression: a smooth field (a) and random data, deflate(4) against uncompressed.
  Array noise(rows_layout, MPI_COMM_WORLD);
  std::mt19937_64 random(std::uint64_t(rank()) + 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  for (index_t i = 0; i < noise.local_size(); ++i) noise.local().data()[i] = uniform(random);
  for (auto [name, data] : {std::pair<const char*, Array*>{"smooth field", &a}, {"random data", &noise}}) {
    const auto timed = [&](const Compression& c) {
      return distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, remove(series), [&] {
        Series s(series, MPI_COMM_WORLD);
        s.begin_step(1);
        s.write("a", *data, c);
        s.commit_step();
      });
    };
    const double plain_s = timed({});
    const double packed_s = timed(Compression::deflate(4));
    const double read_s = distarray::support::median_slowest_seconds(
        MPI_COMM_WORLD, reps, [] {}, [&] { restore_step(series, "a", b); });
    // Rank 0 alone: it prints and writes the record, and the next step removes the file.
    const double kept =
        rank() == 0 ? double(std::filesystem::file_size(series)) / double(rows * cols * 8) : 0;
    if (rank() == 0)
      std::printf(
          "deflate(4), %-12s: file %.1f%% of the data, save %.2fx the time of uncompressed, restore %.3f "
          "GB/s\n",
          name, 100.0 * kept, packed_s / plain_s, gbps(a, read_s));
    record.row()
        .set("compressed", name)
        .set("file_fraction", kept)
        .set("save_s", packed_s)
        .set("uncompressed_save_s", plain_s)
        .set("restore_s", read_s);
  }
  record.write(args.json);
  if (rank() == 0)
    for (const auto& f : {series, bare, plain}) std::filesystem::remove(f);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_checkpoint_io", argc, argv, run);
}
