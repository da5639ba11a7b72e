// distarray: the command-line tool over the library (ARCHITECTURE Sec. 7).

#include "commands.hpp"

#include <distarray/core.hpp>

#include <cstring>
#include <iostream>
#include <optional>
#include <string>

namespace {

/// Each command's options and what it does, as its usage prints them.
struct CommandUsage {
  const char* name;
  const char* text;
};
constexpr CommandUsage commands[] = {
    {"show",
     "  show   --shape NxM --layout TEXT [--svg FILE] [--index-base 0|1]\n"
     "         the owner and local index of every element of a 1-D or 2-D layout;\n"
     "         with no options, a built-in 2-D example\n"},
    {"redist",
     "  redist [--shape 2048x2048] [--type f32|f64|c128|i32|i64] [--from TEXT] [--to TEXT]\n"
     "         [--from-order row-major|column-major] [--to-order row-major|column-major]\n"
     "         [--method auto|direct|indirect|multiphase] [--schedule "
     "auto|aspen|falls|hsu-chung|thakur|classical|brute]\n"
     "         [--exchange auto|alltoallv|p2p|encoded|datatype|shared] [--staging auto|host|none]\n"
     "         [--repeat N] [--verify] [--json FILE] [--wisdom FILE] [--node-shared]\n"
     "         moves the index pattern between layouts with a plan and reports the cost;\n"
     "         default: the transpose (block,*) -> (*,block) over all ranks; --to-order\n"
     "         column-major gives it FFTW-MPI's transposed local blocks; --wisdom (or\n"
     "         DISTARRAY_WISDOM) reads the cost model and engine choices measured before, and\n"
     "         adds what this run measures; --node-shared makes the destination array\n"
     "         node-shared (host or device memory), which the shared engine fills in one pass\n"},
    {"explain",
     "  explain --shape NxM --from TEXT --to TEXT [--type T] [--from-order O] [--to-order O]\n"
     "         [--method M] [--schedule S] [--exchange E] [--ts SEC] [--te SEC] [--renumber]\n"
     "         [--wisdom FILE]\n"
     "         every candidate strategy with its phases and modelled cost, the one a plan\n"
     "         with these options takes, and the engine of each of its exchanges and why\n"
     "         (each side's mean contiguous run, local transposes); moves no data;\n"
     "         --renumber adds the Kalns-Ni renumbering of the destination ranks\n"},
    {"save",
     "  save    --shape NxM --from TEXT --file F.h5 [--type T] [--dataset NAME] [--compress 1-9]\n"
     "          [--array NAME --step N [--steps K]]\n"
     "         the index pattern into an HDF5 checkpoint (dataset of the global shape); with\n"
     "         --array, as steps N..N+K-1 of a series (step s holds the pattern of index + s)\n"},
    {"restore",
     "  restore --file F.h5 --to TEXT [--dataset NAME | --array NAME [--step N]] [--verify]\n"
     "          [--skip-checksum]\n"
     "         a checkpoint into any layout and rank count; --array: a series array of step N,\n"
     "         by default of the latest complete step; --verify checks every element;\n"
     "         --skip-checksum does not compare the saved checksum\n"},
    {"ls",
     "  ls FILE\n"
     "         a series' steps: completeness, attributes, arrays (shape, type, layout saved from);\n"
     "         a plain checkpoint's arrays; writes nothing\n"},
    {"recover",
     "  recover FILE\n"
     "         rolls back a step a series writer stopped inside (the next writer does it too)\n"},
};
constexpr const char* usage_end =
    "layout text: dist[,dist...] on PxQ[@first_rank], dist = block | block(m) | cyclic | cyclic(b) | *\n"
    "Kokkos' options (--kokkos-num-threads=N, --kokkos-device-id=N, ...): distarray --kokkos-help\n";

const CommandUsage* find_command(const std::string& name) {
  for (const CommandUsage& c : commands)
    if (name == c.name) return &c;
  return nullptr;
}

/// The usage of `command` where it is one, else of every command.
std::string usage(const std::string& command) {
  if (const CommandUsage* c = find_command(command))
    return std::string("usage: distarray ") + c->name + " [options]\n" + c->text + usage_end;
  std::string text = "usage: distarray <command> [options]\ncommands:\n";
  for (const CommandUsage& c : commands) text += c.text;
  return text + usage_end;
}

/// Whether the options after a known command ask for its usage.
bool asks_for_help(const std::string& command, int argc, char** argv) {
  if (!find_command(command)) return false;
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

/// The subcommand's exit status.  Throws on bad input.
int run(const std::string& command, int argc, char** argv, int rank) {
  if (command == "help" || command == "--help" || command == "-h" || asks_for_help(command, argc, argv)) {
    if (rank == 0) std::cout << usage(command);
    return 0;
  }
  if (command == "show") return distarray::cli::run_show(argc, argv, MPI_COMM_WORLD);
  if (command == "redist") return distarray::cli::run_redist(argc, argv, MPI_COMM_WORLD);
  if (command == "explain") return distarray::cli::run_explain(argc, argv, MPI_COMM_WORLD);
  if (command == "save") return distarray::cli::run_save(argc, argv, MPI_COMM_WORLD);
  if (command == "restore") return distarray::cli::run_restore(argc, argv, MPI_COMM_WORLD);
  if (command == "ls") return distarray::cli::run_ls(argc, argv, MPI_COMM_WORLD);
  if (command == "recover") return distarray::cli::run_recover(argc, argv, MPI_COMM_WORLD);
  throw distarray::UsageError(command.empty() ? "no command given" : "unknown command '" + command + "'");
}

/// MPI for the whole run, so that an Environment that refuses Kokkos'
/// options can still be reported by rank 0 alone.
struct MpiSession {
  MpiSession(int& argc, char**& argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
};

}  // namespace

int main(int argc, char** argv) {
  const MpiSession mpi(argc, argv);
  // Kokkos prints its options for --kokkos-help (and takes the flag away).
  bool kokkos_help = false;
  for (int i = 1; i < argc; ++i) kokkos_help = kokkos_help || std::strcmp(argv[i], "--kokkos-help") == 0;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::optional<distarray::Environment> env;
  try {
    env.emplace(argc, argv);
  } catch (const distarray::Error& e) {  // a malformed Kokkos option, the same on every rank
    if (rank == 0) std::cerr << "distarray: error: " << e.what() << '\n';
    return 1;
  }
  const std::string command = argc > 1 ? argv[1] : "";
  if (command.empty() && kokkos_help) return 0;
  try {
    // Agreed: an error on any rank (a file only rank 0 writes, say) is the
    // error of every rank, and all ranks exit with the same status.
    int status = distarray::detail::agreed(MPI_COMM_WORLD, [&] { return run(command, argc, argv, rank); });
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return status;
  } catch (const distarray::UsageError& e) {
    if (rank == 0) std::cerr << "distarray: error: " << e.what() << "\n\n" << usage(command);
  } catch (const distarray::Error& e) {
    if (rank == 0) std::cerr << "distarray: error: " << e.what() << '\n';
  }
  return 1;
}
