#include <distarray/core/environment.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <array>
#include <charconv>
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
  }
}

Environment::~Environment() {
  if (owns_kokkos_) Kokkos::finalize();
  if (owns_mpi_) MPI_Finalize();
}

}  // namespace distarray
