// NodeMemory (node_memory.hpp): each rank creates, sizes and maps its own
// block under a name private to this node's ranks and this making, the
// ranks agree, each maps its peers' by name, the ranks agree again, and
// each unlinks its own name.  The registry of node-shared DistArray blocks.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/detail/node_memory.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>

namespace distarray::detail {

namespace {

/// A name no other making on this machine uses: node rank 0's process id
/// and its count of makings, then the rank.
std::string block_name(const std::array<long long, 2>& making, int rank) {
  return "/distarray." + std::to_string(making[0]) + "." + std::to_string(making[1]) + "." +
         std::to_string(rank);
}

/// Maps `name` (created and sized to `bytes` if `create`); nullptr and
/// `error` set on failure.
char* map_block(const std::string& name, std::size_t bytes, bool create, std::string& error) {
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

/// The registered NodeMemory of node-shared DistArray blocks.
std::mutex registry_lock;
std::vector<const NodeMemory*> registry;

}  // namespace

NodeMemory::NodeMemory(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on, const char* what, Where where)
    : where_(where) {
  me_ = rank_of(node);
  const int ranks = ranks_of(node);
  const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
  const std::size_t mine = std::max<std::size_t>(1, (bytes + page - 1) / page) * page;
  static std::atomic<long long> makings{0};
  making_ = {static_cast<long long>(getpid()), makings++};
  DISTARRAY_MPI_CHECK(MPI_Bcast(making_.data(), 2, MPI_LONG_LONG, 0, node));
  // Each rank's size and process id.
  std::vector<long long> mine_and_all(2 * std::size_t(ranks) + 2);
  mine_and_all[0] = static_cast<long long>(mine);
  mine_and_all[1] = static_cast<long long>(getpid());
  DISTARRAY_MPI_CHECK(
      MPI_Allgather(mine_and_all.data(), 2, MPI_LONG_LONG, mine_and_all.data() + 2, 2, MPI_LONG_LONG, node));
  for (int r = 0; r < ranks; ++r) {
    sizes_.push_back(std::size_t(mine_and_all[2 + 2 * std::size_t(r)]));
    processes_.push_back(mine_and_all[3 + 2 * std::size_t(r)]);
  }
  maps_.assign(std::size_t(ranks), nullptr);
  if (where == Where::host)
    map_host(mine, agree_on, what);
  else
    map_device(node, mine, agree_on, what);
}

void NodeMemory::map_host(std::size_t mine, MPI_Comm agree_on, const char* what) {
  std::string error;
  const std::string own = block_name(making_, me_);
  maps_[std::size_t(me_)] = map_block(own, mine, true, error);
  try {
    agree<Error>(agree_on, !error.empty(), std::string(what) + ": " + error);
    for (int r = 0; r < ranks() && error.empty(); ++r)
      if (r != me_)
        maps_[std::size_t(r)] = map_block(block_name(making_, r), sizes_[std::size_t(r)], false, error);
    agree<Error>(agree_on, !error.empty(), std::string(what) + ": " + error);
  } catch (...) {
    shm_unlink(own.c_str());
    unmap();
    throw;
  }
  shm_unlink(own.c_str());  // every rank has mapped it: the name is no longer needed
}

NodeMemory::~NodeMemory() { unmap(); }

std::size_t NodeMemory::alignment() const {
  // (Device allocations: cudaMalloc and hipMalloc align to 256 bytes at least.)
  return where_ == Where::host ? std::size_t(sysconf(_SC_PAGESIZE)) : 256;
}

void NodeMemory::unmap() {
  if (where_ == Where::device) return unmap_device();
  for (std::size_t r = 0; r < maps_.size(); ++r)
    if (maps_[r]) munmap(maps_[r], sizes_[r]);
  maps_.clear();
}

std::shared_ptr<const NodeMemory> make_node_shared(MPI_Comm comm, std::size_t bytes,
                                                   NodeMemory::Where where) {
  MPI_Comm node = MPI_COMM_NULL;
  DISTARRAY_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_of(comm), MPI_INFO_NULL, &node));
  std::unique_ptr<NodeMemory> memory;
  try {
    memory = std::make_unique<NodeMemory>(node, bytes, comm, "a node-shared block", where);
  } catch (const Error& e) {
    MPI_Comm_free(&node);
    throw AllocationError(e.what());
  }
  MPI_Comm_free(&node);
  const std::lock_guard<std::mutex> hold(registry_lock);
  registry.push_back(memory.get());
  return std::shared_ptr<const NodeMemory>(memory.release(), [](const NodeMemory* m) {
    {
      const std::lock_guard<std::mutex> hold(registry_lock);
      std::erase(registry, m);
    }
    delete m;
  });
}

NodeSharedPlace node_shared_holding(const void* p) {
  const auto* byte = static_cast<const char*>(p);
  const std::lock_guard<std::mutex> hold(registry_lock);
  for (const NodeMemory* m : registry) {
    const char* block = m->block(m->me());
    // (std::less: a total order over pointers into different blocks)
    if (!std::less<const char*>()(byte, block) &&
        std::less<const char*>()(byte, block + m->bytes_of(m->me())))
      return {m, std::size_t(byte - block)};
  }
  return {};
}

}  // namespace distarray::detail
