// distarray save / restore: the test pattern into an HDF5 checkpoint and back,
// on any layout and rank count (ARCHITECTURE Sec. 6, 7): one dataset
// (--dataset) or an array of a series step (--array, --step).

#include "args.hpp"
#include "commands.hpp"
#include "element_types.hpp"

#include <distarray/support/element_pattern.hpp>
#include "report_table.hpp"

#include <distarray/core.hpp>
#include <distarray/io.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace distarray::cli {

namespace {

template <class T, int D>
Index<D> extents_of(const std::vector<index_t>& shape) {
  Index<D> e{};
  for (int d = 0; d < D; ++d) e[d] = shape[std::size_t(d)];
  return e;
}

/// Calls f.template operator()<T, D>() for the element type name and dimension count.
template <class F>
int dispatch(const std::string& type, std::size_t dims, F&& f) {
  return with_element_type(type, [&]<class T>() {
    switch (dims) {
      case 1:
        return f.template operator()<T, 1>();
      case 2:
        return f.template operator()<T, 2>();
      case 3:
        return f.template operator()<T, 3>();
    }
    throw UsageError("save and restore handle 1- to 3-dimensional arrays, not " + std::to_string(dims));
  });
}

void print_io(const std::string& what, const std::string& layout, const std::string& path, index_t bytes,
              double seconds, MPI_Comm comm) {
  double slowest = seconds;
  MPI_Allreduce(MPI_IN_PLACE, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    std::printf("%s %s (%s)\n  %.2f MiB in %.3f s: %.3f GB/s\n", what.c_str(), path.c_str(), layout.c_str(),
                double(bytes) / (1 << 20), slowest, slowest > 0 ? double(bytes) / slowest / 1e9 : 0.0);
}

/// --array names a series array, --dataset a plain dataset; not both.
bool series_mode(const Args& args) {
  if (args.has("array") && args.has("dataset"))
    throw UsageError("give --array (a series) or --dataset, not both");
  for (const char* option : {"step", "steps"})
    if (args.has(option) && !args.has("array"))
      throw UsageError(std::string("--") + option + " needs --array (a series array)");
  return args.has("array");
}

Compression compression_of(const Args& args) {
  return args.has("compress") ? Compression::deflate(int(args.get_int("compress", 4, 1, 9))) : Compression{};
}

}  // namespace

int run_save(int argc, char** argv, MPI_Comm comm) {
  const Args args(argc, argv, 2,
                  {"shape", "type", "from", "file", "dataset", "array", "step", "steps", "compress",
                   "pause-before-commit"},
                  {});
  if (!args.has("shape") || !args.has("from") || !args.has("file"))
    throw UsageError("save needs --shape, --from and --file");
  const std::vector<index_t> shape = parse_shape(args.get("shape", ""));
  const std::string path = args.get("file", "");
  const bool series = series_mode(args);
  const std::string name = series ? args.get("array", "") : args.get("dataset", "array");
  const index_t first = args.get_int("step", 0, 0, index_t(1) << 40);
  const index_t steps = series ? args.get_int("steps", 1, 1, 1000000) : 1;
  return dispatch(args.get("type", "f64"), shape.size(), [&]<class T, int D>() {
    const Index<D> extents = extents_of<T, D>(shape);
    DistArray<T, D> a(Layout<D>::parse(args.get("from", ""), extents), comm);
    const double start = MPI_Wtime();
    if (series) {
      Series s(path, comm);
      for (index_t step = first; step < first + steps; ++step) {
        support::fill_pattern(a, step);
        s.begin_step(std::uint64_t(step),
                     {{"time", 0.001 * double(step)}, {"writer", std::string("distarray save")}});
        s.write(name, a, compression_of(args));
        s.commit_step();
      }
    } else {
      support::fill_pattern(a);
      CheckpointWriter w(path, comm);
      w.write(name, a, compression_of(args));
      // For tests of interrupted saves: the file is written but not yet in place.
      if (const auto pause = args.get_int("pause-before-commit", 0, 0, 3600)) ::sleep(unsigned(pause));
      w.commit();
    }
    print_io("saved '" + name + "'" + (series ? " step " + std::to_string(first + steps - 1) : "") + " to",
             a.layout().to_string(), path, element_count(extents) * index_t(sizeof(T)) * steps,
             MPI_Wtime() - start, comm);
    return 0;
  });
}

int run_restore(int argc, char** argv, MPI_Comm comm) {
  const Args args(argc, argv, 2, {"file", "dataset", "array", "step", "to"}, {"verify", "skip-checksum"});
  if (!args.has("file") || !args.has("to")) throw UsageError("restore needs --file and --to");
  const std::string path = args.get("file", "");
  const bool series = series_mode(args);
  std::optional<std::uint64_t> step;
  if (args.has("step")) step = std::uint64_t(args.get_int("step", 0, 0, index_t(1) << 40));
  std::string name = args.get("dataset", "array");
  DatasetInfo info;
  if (series) {  // the array's shape and type from the step's listing
    const auto steps = list_steps(path, comm);
    const std::string array = args.get("array", "");
    for (const StepInfo& s : steps) {
      if (step && s.step == *step && !s.damage.empty())
        throw CheckpointError("series '" + path + "': step " + std::to_string(*step) +
                              " is damaged: " + s.damage);
      for (const auto& [n, i] : s.arrays)
        if (n == array && (step ? s.step == *step : s.complete)) info = i;
    }
    if (info.element_type.empty())
      throw CheckpointError("series '" + path + "': no " +
                            (step ? "step " + std::to_string(*step) : "complete step") + " holds an array '" +
                            array + "'");
    name = array;
  } else {
    info = checkpoint_info(path, name, comm);
  }
  return dispatch(info.element_type, info.shape.size(), [&]<class T, int D>() {
    const Index<D> extents = extents_of<T, D>(info.shape);
    DistArray<T, D> a(Layout<D>::parse(args.get("to", ""), extents), comm);
    const double start = MPI_Wtime();
    index_t shift = 0;  // the step restored
    const RestoreOptions options{.verify_checksum = !args.has("skip-checksum")};
    if (series)
      shift = index_t(restore_step(path, name, a, step, options));
    else
      restore(path, name, a, options);
    print_io("restored '" + name + "'" + (series ? " step " + std::to_string(shift) : "") + " (" +
                 info.element_type + " " + extents_text(info.shape) + ") from",
             a.layout().to_string(), path, element_count(extents) * index_t(sizeof(T)), MPI_Wtime() - start,
             comm);
    if (!args.has("verify")) return 0;
    const index_t bad = support::pattern_mismatches(a, shift);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
      std::printf("  verify %s\n",
                  bad == 0 ? "ok, every element" : (std::to_string(bad) + " elements WRONG").c_str());
    return bad == 0 ? 0 : 1;
  });
}

}  // namespace distarray::cli
