// distarray restore: an HDF5 checkpoint's dataset (--dataset) or a series
// step's array (--array, --step) onto any layout and rank count (--to),
// its checksum verified; --verify checks every element against the pattern
// distarray save wrote (ARCHITECTURE Sec. 6, 7).

#include "checkpoint_io.hpp"
#include "commands.hpp"

#include <distarray/support/element_pattern.hpp>

#include <cstdio>
#include <optional>

namespace distarray::cli {

int run_restore(int argc, char** argv, MPI_Comm comm) {
  const support::Options args(argc - 1, argv + 1, {"file", "dataset", "array", "step", "to"},
                              {"verify", "skip-checksum"});
  if (!args.has("file") || !args.has("to")) throw UsageError("restore needs --file and --to");
  const std::string path = args.text("file", "");
  const bool series = series_mode(args);
  std::optional<std::uint64_t> step;
  if (args.has("step")) step = std::uint64_t(args.integer("step", 0, 0, index_t(1) << 40));
  std::string name = args.text("dataset", "array");
  DatasetInfo info;
  if (series) {  // the step read (the library chooses and refuses), the array's shape and type there
    name = args.text("array", "");
    const StepArrayInfo found = step_array_info(path, name, comm, step);
    step = found.step;  // named below: restore_step warns of the steps passed over only once, here
    info = found.array;
  } else {
    info = checkpoint_info(path, name, comm);
  }
  return dispatch(info.element_type, info.shape.size(), [&]<class T, int D>() {
    const Index<D> extents = extents_of<T, D>(info.shape);
    DistArray<T, D> a(Layout<D>::parse(args.text("to", ""), extents), comm);
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
