// What distarray save and restore share (checkpoint_io.hpp).

#include "checkpoint_io.hpp"

#include <cstdio>

namespace distarray::cli {

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

bool series_mode(const support::Options& args) {
  if (args.has("array") && args.has("dataset"))
    throw UsageError("give --array (a series) or --dataset, not both");
  for (const char* option : {"step", "steps"})
    if (args.has(option) && !args.has("array"))
      throw UsageError(std::string("--") + option + " needs --array (a series array)");
  return args.has("array");
}

}  // namespace distarray::cli
