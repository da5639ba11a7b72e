// NodeSegments (node_segments.hpp): each rank creates, sizes and maps its
// own segment under a name private to this node's ranks and this making,
// the ranks agree, each maps its peers' by name, the ranks agree again, and
// each unlinks its own name.

#include "node_segments.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace distarray::detail {

namespace {

/// A name no other making on this machine uses: node rank 0's process id
/// and its count of makings, then the rank.
std::string segment_name(const long long id[2], int rank) {
  return "/distarray." + std::to_string(id[0]) + "." + std::to_string(id[1]) + "." + std::to_string(rank);
}

/// Maps `name` (created and sized to `bytes` if `create`); nullptr and
/// `error` set on failure.
char* map_segment(const std::string& name, std::size_t bytes, bool create, std::string& error) {
  const int fd = shm_open(name.c_str(), create ? O_CREAT | O_EXCL | O_RDWR : O_RDWR, 0600);
  if (fd < 0) {
    error = "shm_open(" + name + "): " + std::strerror(errno);
    return nullptr;
  }
  if (create) {
    // Reserved now: tmpfs maps a larger file than it has room for, then
    // kills the process with SIGBUS when a page is touched.
    const int failed = posix_fallocate(fd, 0, off_t(bytes));
    if (failed) {
      error = "reserving " + std::to_string(bytes) + " bytes of shared memory for " + name + ": " +
              std::strerror(failed);
      close(fd);
      shm_unlink(name.c_str());
      return nullptr;
    }
  }
  // Populated: the page tables filled now, not by a fault on each page's
  // first touch inside an execution (the automatic engine's trials would
  // time those faults and never keep the shared engine).
  void* at = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  close(fd);  // the mapping keeps the memory
  if (at == MAP_FAILED) {
    error = "mmap(" + name + "): " + std::strerror(errno);
    if (create) shm_unlink(name.c_str());
    return nullptr;
  }
  return static_cast<char*>(at);
}

}  // namespace

NodeSegments::NodeSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on) {
  const int rank = rank_of(node), ranks = ranks_of(node);
  const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  const std::size_t mine = std::max<std::size_t>(1, (bytes + page - 1) / page) * page;
  static std::atomic<long long> makings{0};
  long long id[2] = {static_cast<long long>(getpid()), makings++};
  DISTARRAY_MPI_CHECK(MPI_Bcast(id, 2, MPI_LONG_LONG, 0, node));
  std::vector<unsigned long long> sizes(static_cast<std::size_t>(ranks));
  const unsigned long long size = mine;
  DISTARRAY_MPI_CHECK(
      MPI_Allgather(&size, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG, node));
  sizes_.assign(sizes.begin(), sizes.end());
  maps_.assign(std::size_t(ranks), nullptr);
  std::string error;
  const std::string own = segment_name(id, rank);
  maps_[std::size_t(rank)] = map_segment(own, mine, true, error);
  try {
    agree<Error>(agree_on, !error.empty(), "shared exchange: " + error);
    for (int r = 0; r < ranks && error.empty(); ++r)
      if (r != rank)
        maps_[std::size_t(r)] = map_segment(segment_name(id, r), sizes_[std::size_t(r)], false, error);
    agree<Error>(agree_on, !error.empty(), "shared exchange: " + error);
  } catch (...) {
    shm_unlink(own.c_str());
    unmap();
    throw;
  }
  shm_unlink(own.c_str());  // every rank has mapped it: the name is no longer needed
}

NodeSegments::~NodeSegments() { unmap(); }

void NodeSegments::unmap() {
  for (std::size_t r = 0; r < maps_.size(); ++r)
    if (maps_[r]) munmap(maps_[r], sizes_[r]);
  maps_.clear();
}

}  // namespace distarray::detail
