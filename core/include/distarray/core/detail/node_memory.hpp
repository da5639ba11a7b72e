#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/core/detail/node_memory.hpp is internal: include <distarray/core.hpp>"
#endif
// NodeMemory: one block of memory per rank of a node, each mapped by every
// rank of the node: host memory (POSIX shared memory: shm_open + mmap), or
// the memory of the node's GPU (cudaMalloc / hipMalloc, opened by the
// peers through CUDA or HIP IPC: device_node_memory.cpp).  Not an
// MPI-3 window: MPI_Win_free is collective (Open MPI's is a barrier on the
// node), and the owners of this memory (a plan's shared engine, a
// DistArray's block) are destroyed whenever their owner lets them go — the
// ScaLAPACK drop-in's plan cache evicts on one rank while the others are in
// a collective, which deadlocked.  Making the blocks is collective;
// unmapping them is not.
//
// A DistArray made node_shared keeps its block here and registers it, so
// that the shared engine can find, from a destination block's address,
// where every peer of the node sees it and write into it in one pass
// (redist/src/exchange/shared.cpp).

#include <mpi.h>
#include <Kokkos_Core_fwd.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace distarray::detail {

class NodeMemory {
 public:
  enum class Where { host, device };
  /// Where a Kokkos memory space's allocations live: a node-shared block
  /// for them (HostSpace, or the device's memory space).
  template <class MemorySpace>
  static constexpr Where where_of() {
    return std::is_same_v<MemorySpace, Kokkos::HostSpace> ? Where::host : Where::device;
  }

  /// Collective over `node`: `bytes` for this rank (rounded up to whole
  /// pages, at least one), and every rank's block mapped here.  In host
  /// memory reserved (posix_fallocate: no SIGBUS later where tmpfs is full)
  /// and mapped populated; the names are unlinked before it returns:
  /// nothing is left in /dev/shm, even if the process dies.  Throws Error
  /// (its message starts with `what`) on every rank of `agree_on` (a
  /// communicator holding the node's ranks) where a rank cannot make or map
  /// a block, or device memory is asked of a build without CUDA or HIP.
  NodeMemory(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on, const char* what,
             Where where = Where::host);
  NodeMemory(const NodeMemory&) = delete;
  NodeMemory& operator=(const NodeMemory&) = delete;
  ~NodeMemory();

  Where where() const { return where_; }
  /// Every block begins at a multiple of this many bytes, in any process's
  /// mapping: places in two blocks are whole elements of any size dividing
  /// it apart.
  std::size_t alignment() const;
  int ranks() const { return int(maps_.size()); }
  /// This process's number in the node it was made on.
  int me() const { return me_; }
  /// Node rank `r`'s block, as mapped in this process.
  char* block(int r) const { return maps_[std::size_t(r)]; }
  std::size_t bytes_of(int r) const { return sizes_[std::size_t(r)]; }
  /// Node rank `r`'s process id: a peer's number here, whatever
  /// communicator it is found in.
  long long process_of(int r) const { return processes_[std::size_t(r)]; }
  /// Which making this is, the same on every rank of its node and never
  /// another making's on the same machine.
  const std::array<long long, 2>& making() const { return making_; }

 private:
  void map_host(std::size_t bytes, MPI_Comm agree_on, const char* what);
  void map_device(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on, const char* what);
  void unmap();
  void unmap_device();
  Where where_;
  int me_ = 0;
  std::array<long long, 2> making_{};
  std::vector<char*> maps_;
  std::vector<std::size_t> sizes_;
  std::vector<long long> processes_;
};

/// Collective over `comm`: a NodeMemory over the ranks of `comm` that share
/// this node, registered until the last copy of the pointer goes, for
/// node_shared_holding().  Throws AllocationError on every rank of `comm`
/// where one cannot be made.
std::shared_ptr<const NodeMemory> make_node_shared(MPI_Comm comm, std::size_t bytes,
                                                   NodeMemory::Where where = NodeMemory::Where::host);

/// Where this process's own block of a registered NodeMemory holds `p`:
/// that memory and `p`'s byte offset in the block; null where none does.
struct NodeSharedPlace {
  const NodeMemory* memory = nullptr;
  std::size_t offset = 0;
};
NodeSharedPlace node_shared_holding(const void* p);

}  // namespace distarray::detail
