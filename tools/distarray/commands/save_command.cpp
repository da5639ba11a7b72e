// distarray save: the test pattern into an HDF5 checkpoint, one dataset
// (--dataset), or the steps of a series array (--array, --step, --steps);
// restored on any layout and rank count by distarray restore
// (ARCHITECTURE Sec. 6, 7).

#include "checkpoint_io.hpp"
#include "commands.hpp"

#include <distarray/support/element_pattern.hpp>

#include <unistd.h>

namespace distarray::cli {

namespace {

Compression compression_of(const support::Options& args) {
  return args.has("compress") ? Compression::deflate(int(args.integer("compress", 4, 1, 9))) : Compression{};
}

}  // namespace

int run_save(int argc, char** argv, MPI_Comm comm) {
  const support::Options args(argc - 1, argv + 1,
                              {"shape", "type", "from", "file", "dataset", "array", "step", "steps",
                               "compress", "pause-before-commit"},
                              {});
  if (!args.has("shape") || !args.has("from") || !args.has("file"))
    throw UsageError("save needs --shape, --from and --file");
  const std::vector<index_t> shape = parse_shape(args.text("shape", ""));
  const std::string path = args.text("file", "");
  const bool series = series_mode(args);
  const std::string name = series ? args.text("array", "") : args.text("dataset", "array");
  const index_t first = args.integer("step", 0, 0, index_t(1) << 40);
  const index_t steps = series ? args.integer("steps", 1, 1, 1000000) : 1;
  return dispatch(args.text("type", "f64"), shape.size(), [&]<class T, int D>() {
    const Index<D> extents = extents_of<T, D>(shape);
    DistArray<T, D> a(Layout<D>::parse(args.text("from", ""), extents), comm);
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
      if (const auto pause = args.integer("pause-before-commit", 0, 0, 3600)) ::sleep(unsigned(pause));
      w.commit();
    }
    print_io("saved '" + name + "'" + (series ? " step " + std::to_string(first + steps - 1) : "") + " to",
             a.layout().to_string(), path, element_count(extents) * index_t(sizeof(T)) * steps,
             MPI_Wtime() - start, comm);
    return 0;
  });
}

}  // namespace distarray::cli
