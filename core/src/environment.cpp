#include <distarray/core/environment.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <mpi.h>
#include <sched.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <charconv>
#include <climits>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace distarray {

namespace {

/// Kokkos' numeric options (3.4 and 4.x spellings, legacy ones included):
/// Kokkos parses them with std::stoi and lets a bad value abort the program.
constexpr std::array<std::string_view, 14> kokkos_numeric_options = {
    "--kokkos-threads",   "--kokkos-num-threads", "--threads",
    "--num-threads",      "--kokkos-numa",        "--numa",
    "--kokkos-device-id", "--device-id",          "--device",
    "--kokkos-ndevices",  "--ndevices",           "--kokkos-num-devices",
    "--num-devices",      "--kokkos-skip-device"};

bool is_integer_list(std::string_view text) {  // "4" or, for ndevices, "2,1"
  while (true) {
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end == text.data() || v < 0) return false;
    text.remove_prefix(std::size_t(end - text.data()));
    if (text.empty()) return true;
    if (text.front() != ',') return false;
    text.remove_prefix(1);
  }
}

/// UsageError naming the first Kokkos numeric option whose value Kokkos would choke on.
void check_kokkos_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    for (const std::string_view name : kokkos_numeric_options) {
      if (arg.substr(0, name.size()) != name) continue;
      const std::string_view rest = arg.substr(name.size());
      if (!rest.empty() && rest.front() != '=') continue;  // a longer option name
      if (rest.size() < 2 || !is_integer_list(rest.substr(1)))
        throw UsageError("Kokkos option '" + std::string(arg) + "' needs '=N' with N a non-negative integer");
    }
  }
}

bool is_help(std::string_view arg) { return arg == "--help" || arg == "-h"; }

/// Kokkos::initialize without "--help" and "-h": Kokkos answers those with
/// forty lines of its own options, while a program prints its own usage
/// (Kokkos' options stay under --kokkos-help).  The arguments Kokkos consumes
/// leave argv; the others keep their order.
void initialize_kokkos(int& argc, char** argv) {
  std::vector<char*> for_kokkos;
  for (int i = 0; i < argc; ++i)
    if (!is_help(argv[i])) for_kokkos.push_back(argv[i]);
  int n = int(for_kokkos.size());
  for_kokkos.push_back(nullptr);
  Kokkos::initialize(n, for_kokkos.data());
  const std::set<const char*> kept(for_kokkos.begin(), for_kokkos.begin() + n);
  int out = 0;
  for (int i = 0; i < argc; ++i)
    if (is_help(argv[i]) || kept.count(argv[i])) argv[out++] = argv[i];
  argc = out;
  argv[argc] = nullptr;
}

/// Rank 0 warns once where a rank has more host threads than cores in its
/// affinity mask: Open MPI binds each rank to one core when it starts two or
/// fewer, and its threads then take turns on that core (a 1-rank
/// redistribution took the same time with 1 and 2 threads).  Collective.
void warn_if_threads_share_cores(MPI_Comm comm) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  const int cores = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : 0;
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  const bool short_of_cores = cores > 0 && threads > cores;
  // {ranks short of cores, most threads there, fewest cores there (negated)}
  int worst[3] = {short_of_cores ? 1 : 0, short_of_cores ? threads : 0, short_of_cores ? -cores : INT_MIN};
  int reduced[3] = {0, 0, 0};
  DISTARRAY_MPI_CHECK(MPI_Reduce(worst, reduced, 1, MPI_INT, MPI_SUM, 0, comm));
  DISTARRAY_MPI_CHECK(MPI_Reduce(worst + 1, reduced + 1, 2, MPI_INT, MPI_MAX, 0, comm));
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  if (rank != 0 || reduced[0] == 0) return;
  std::fprintf(stderr,
               "distarray: warning: %d of %d ranks run %d host threads on %d core(s) of their affinity mask: "
               "the threads share cores.  Give them theirs: mpiexec --bind-to none, or --map-by slot:PE=%d "
               "(docs/guide.md, threads and cores)\n",
               reduced[0], ranks, reduced[1], -reduced[2], reduced[1]);
}

}  // namespace

Environment::Environment(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    DISTARRAY_MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    owns_mpi_ = true;
  }
  if (!Kokkos::is_initialized()) {
    try {
      check_kokkos_options(argc, argv);
      initialize_kokkos(argc, argv);
    } catch (const std::exception& e) {
      if (owns_mpi_) MPI_Finalize();  // the destructor of a half-built object does not run
      if (dynamic_cast<const UsageError*>(&e)) throw;
      throw UsageError(std::string("Kokkos refused its command-line options: ") + e.what());
    }
    owns_kokkos_ = true;
    warn_if_threads_share_cores(MPI_COMM_WORLD);
  }
}

Environment::~Environment() {
  if (owns_kokkos_) Kokkos::finalize();
  if (owns_mpi_) MPI_Finalize();
}

}  // namespace distarray
