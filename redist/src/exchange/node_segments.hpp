#pragma once
// NodeSegments: one block of shared memory per rank of a node, each mapped
// by every rank of the node, for the shared engine.  POSIX shared memory
// (shm_open + mmap), not an MPI-3 window: MPI_Win_free is collective (Open
// MPI's is a barrier on the node), and a plan is destroyed whenever its
// owner lets it go — the ScaLAPACK drop-in's plan cache evicts on one rank
// while the others are in a collective, which deadlocked.  Here making the
// segments is collective and unmapping them is not.

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace distarray::detail {

class NodeSegments {
 public:
  /// Collective over `node`: `bytes` for this rank (rounded up to pages),
  /// reserved in memory (posix_fallocate: no SIGBUS later where tmpfs is
  /// full), and every rank's segment mapped here.  Throws Error on every
  /// rank of `agree_on` (a communicator holding the node's ranks) where a
  /// rank cannot make or map its segments.  The names are unlinked before
  /// it returns: nothing is left in /dev/shm, even if the process dies.
  NodeSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on);
  NodeSegments(const NodeSegments&) = delete;
  NodeSegments& operator=(const NodeSegments&) = delete;
  ~NodeSegments();

  /// Node rank `r`'s segment, as mapped in this process (page-aligned).
  char* segment(int r) const { return maps_[std::size_t(r)]; }
  /// The lowest-addressed segment: every segment lies at or after it.
  char* lowest() const;
  std::size_t bytes_of(int r) const { return sizes_[std::size_t(r)]; }

 private:
  void unmap();

  std::vector<char*> maps_;
  std::vector<std::size_t> sizes_;
};

}  // namespace distarray::detail
