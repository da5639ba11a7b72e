#pragma once
// The MPI tests' view of MPI_COMM_WORLD, and this process's resident memory.

#include <mpi.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace distarray::testing {

inline int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/// `first` on rank 0 and `others` on every other rank: an argument that
/// differs between ranks (tests of collective calls given different ones).
template <class V>
V first_or(const V& first, const V& others) {
  return world_rank() == 0 ? first : others;
}

/// The rank count as text, for layout strings ("block on " + ranks_text()).
inline std::string ranks_text() { return std::to_string(world_size()); }

/// This launch's name for what it writes: its rank count and, where one is
/// named, the MPI-IO component (ctest runs the same tests at one rank count
/// through OMPIO and through ROMIO at once).
inline std::string launch_name() {
  const char* io = std::getenv("OMPI_MCA_io");
  return "np" + ranks_text() + (io ? std::string("_") + io : std::string());
}

/// A file name private to this launch (tests at several rank counts run at once).
inline std::string launch_file(const std::string& stem) { return stem + "_" + launch_name() + ".h5"; }

/// DISTARRAY_EMULATED_NODES=n while it lives (unset for n = 1): the plans
/// made meanwhile see MPI_COMM_WORLD cut into n "nodes" (mixed plans on
/// one machine).  Every rank makes it alike.
class EmulatedNodes {
 public:
  explicit EmulatedNodes(int nodes) {
    if (nodes > 1) setenv("DISTARRAY_EMULATED_NODES", std::to_string(nodes).c_str(), 1);
  }
  EmulatedNodes(const EmulatedNodes&) = delete;
  EmulatedNodes& operator=(const EmulatedNodes&) = delete;
  ~EmulatedNodes() { unsetenv("DISTARRAY_EMULATED_NODES"); }
};

/// False under AddressSanitizer, whose quarantine keeps freed memory
/// resident: growth bounds on resident memory are meaningless there.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool resident_memory_is_meaningful = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool resident_memory_is_meaningful = false;
#else
inline constexpr bool resident_memory_is_meaningful = true;
#endif
#else
inline constexpr bool resident_memory_is_meaningful = true;
#endif

/// Resident memory of this process in KiB (Linux /proc).
inline long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * 4;
}

}  // namespace distarray::testing
