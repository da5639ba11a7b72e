// distarray recover FILE: rolls back a step that a series writer stopped
// inside (killed, or out of space), as the next writer would: readers never
// write, so they only report such a step (docs/reliability.md).

#include "commands.hpp"

#include <distarray/io.hpp>
#include <distarray/support/options.hpp>

#include <cstdio>
#include <string>

namespace distarray::cli {

int run_recover(int argc, char** argv, MPI_Comm comm) {
  const bool positional = argc > 2 && std::string(argv[2]).rfind("--", 0) != 0;
  const support::Options args(argc - (positional ? 2 : 1), argv + (positional ? 2 : 1), {"file"}, {});
  if (!positional && !args.has("file")) throw UsageError("recover needs a file: distarray recover FILE");
  const std::string path = positional ? argv[2] : args.text("file", "");
  { const Series writer(path, comm); }  // opening to write rolls back what a stopped writer left
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::printf("%s: every step is complete or rolled back\n", path.c_str());
  return 0;
}

}  // namespace distarray::cli
