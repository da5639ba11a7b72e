// Save and restore bandwidth against the floor of the same bytes written and
// read with plain MPI_File_write_at_all / MPI_File_read_at_all of contiguous
// pieces (one per rank), measured in the same run; every write starts from no
// file.  Median of repetitions, slowest rank.  Block layouts are the target case; a block-cyclic one shows
// the cost of many hyperslabs.
//
//   mpiexec -n 4 build/bench/bench_checkpoint_io [--mib 512] [--reps 3] [--dir .] [--json FILE]

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <driver_main.hpp>
#include <median_timing.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace distarray;

struct Row {
  std::string layout;
  double save, restore, floor_write, floor_read;
};

Row measure(const std::string& text, index_t rows, index_t cols, const std::string& dir, int reps) {
  const auto layout = Layout<2>::parse(text, {rows, cols});
  DistArray<double, 2> a(layout, MPI_COMM_WORLD), b(layout, MPI_COMM_WORLD);
  a.fill([cols](const Index<2>& g) { return double(g[0] * cols + g[1]); });
  const std::string path = dir + "/bench_checkpoint.h5", raw = dir + "/bench_floor.bin";
  Row r{text, 0, 0, 0, 0};
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  // Writes start from no file, as a save always makes a new one.
  const auto remove = [&](const std::string& f) {
    return [&, f] {
      if (me == 0) std::remove(f.c_str());
    };
  };
  const auto nothing = [] {};
  r.save = median_slowest_seconds(MPI_COMM_WORLD, reps, remove(path), [&] { save(path, "a", a); });
  r.restore = median_slowest_seconds(MPI_COMM_WORLD, reps, nothing, [&] { restore(path, "a", b); });
  // The floor: each rank's local bytes as one contiguous piece at its offset.
  const MPI_Offset bytes = MPI_Offset(a.local_size()) * 8;
  MPI_Offset offset = 0;
  MPI_Exscan(&bytes, &offset, 1, MPI_OFFSET, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0) offset = 0;
  const auto io = [&](bool write) {
    MPI_File f;
    MPI_File_open(MPI_COMM_WORLD, raw.c_str(), write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                  MPI_INFO_NULL, &f);
    // Pieces under 1 GiB per call.
    for (MPI_Offset done = 0; done < bytes || done == 0;) {
      const int n = int(std::min<MPI_Offset>(bytes - done, 1 << 30));
      char* p = reinterpret_cast<char*>(write ? a.local().data() : b.local().data()) + done;
      if (write)
        MPI_File_write_at_all(f, offset + done, p, n, MPI_BYTE, MPI_STATUS_IGNORE);
      else
        MPI_File_read_at_all(f, offset + done, p, n, MPI_BYTE, MPI_STATUS_IGNORE);
      done += n;
      if (n == 0) break;
    }
    if (write) MPI_File_sync(f);
    MPI_File_close(&f);
  };
  r.floor_write = median_slowest_seconds(MPI_COMM_WORLD, reps, remove(raw), [&] { io(true); });
  r.floor_read = median_slowest_seconds(MPI_COMM_WORLD, reps, nothing, [&] { io(false); });
  if (me == 0) {
    std::remove(path.c_str());
    std::remove(raw.c_str());
  }
  return r;
}

int run(int argc, char** argv) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  index_t mib = 512;
  int reps = 3;
  std::string dir = ".", json;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--mib")) mib = std::stol(argv[i + 1]);
    if (!std::strcmp(argv[i], "--reps")) reps = std::stoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    if (!std::strcmp(argv[i], "--json")) json = argv[i + 1];
  }
  const index_t cols = 4096, rows = mib * (1 << 20) / 8 / cols;
  const std::string p = std::to_string(size);
  std::vector<Row> rows_out = {measure("block,* on " + p + "x1", rows, cols, dir, reps),
                               measure("*,block on 1x" + p, rows, cols, dir, reps),
                               measure("cyclic(64),cyclic(64) on " + p + "x1", rows, cols, dir, reps)};
  if (me != 0) return 0;
  const double gb = double(rows * cols * 8) / 1e9;
  std::printf("%d ranks, %ldx%ld doubles (%.0f MiB), median of %d, slowest rank, GB/s\n", size, long(rows),
              long(cols), double(rows * cols * 8) / (1 << 20), reps);
  std::printf("%-32s %8s %8s %8s %8s %8s %8s\n", "layout", "save", "floor-w", "ratio", "restore", "floor-r",
              "ratio");
  for (const Row& r : rows_out)
    std::printf("%-32s %8.3f %8.3f %8.2f %8.3f %8.3f %8.2f\n", r.layout.c_str(), gb / r.save,
                gb / r.floor_write, r.floor_write / r.save, gb / r.restore, gb / r.floor_read,
                r.floor_read / r.restore);
  if (!json.empty()) {
    std::ofstream out(json);
    out << "[\n";
    for (std::size_t i = 0; i < rows_out.size(); ++i) {
      const Row& r = rows_out[i];
      out << "  {\"layout\": \"" << r.layout << "\", \"ranks\": " << size
          << ", \"bytes\": " << rows * cols * 8 << ", \"save_s\": " << r.save
          << ", \"restore_s\": " << r.restore << ", \"floor_write_s\": " << r.floor_write
          << ", \"floor_read_s\": " << r.floor_read << ", \"save_ratio\": " << r.floor_write / r.save
          << ", \"restore_ratio\": " << r.floor_read / r.restore << "}"
          << (i + 1 < rows_out.size() ? "," : "") << "\n";
    }
    out << "]\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return distarray::driver_main("bench_checkpoint_io", argc, argv, run); }
