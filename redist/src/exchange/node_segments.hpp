#pragma once
// Segments: one block of memory per rank of a node, each mapped by every
// rank of the node, for the shared engine; in host memory (NodeSegments) or
// device memory (DeviceSegments).  Making them is collective and unmapping
// them is not: a plan is destroyed whenever its owner lets it go.

#include <distarray/core/detail/node_memory.hpp>
#include <distarray/redist/detail/exec/exchange_buffers.hpp>

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace distarray::detail {

/// Every segment of a node, as mapped in this process: NodeMemory's blocks.
class Segments {
 public:
  Segments(const Segments&) = delete;
  Segments& operator=(const Segments&) = delete;
  virtual ~Segments() = default;

  // The order of the node's kernels around one execution of the shared
  // engine (shared.cpp), on the step's buffers `b`.  In host memory a fence
  // after each pack and unpack, the node barrier between them.  In device
  // memory (DeviceSegments) interprocess events on the step's stream, so
  // that the host never waits for the device: a pack waits for the peers'
  // last unpacks (which read the window it is about to write), an unpack
  // for the peers' last packs.  For a one pass (one_pass.hpp), at each start
  // before the rank posts: hand_over, its destination handed to the peers
  // that write into it, on a device after every kernel of its stream so far
  // (the caller's on the destination included), as an unpack is: the peers'
  // passes wait for it in their before_pack.
  virtual void hand_over(PlacedBuffers&) {}
  virtual void before_pack(PlacedBuffers&) {}
  virtual void after_pack(PlacedBuffers& b) { b.fence(); }
  virtual void before_unpack(PlacedBuffers&) {}
  virtual void after_unpack(PlacedBuffers& b) { b.fence(); }

  /// Node rank `r`'s segment, as mapped in this process (aligned as
  /// NodeMemory::alignment says).
  char* segment(int r) const { return memory_.block(r); }
  /// The lowest-addressed segment: every segment lies at or after it.
  char* lowest() const {
    char* low = memory_.block(0);
    for (int r = 1; r < memory_.ranks(); ++r) low = std::min(low, memory_.block(r));
    return low;
  }
  std::size_t bytes_of(int r) const { return memory_.bytes_of(r); }

 protected:
  /// Collective over `node`: NodeMemory's blocks of `bytes` in `where`;
  /// throws Error on every rank of `agree_on` where one cannot be made.
  Segments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on, const char* what, NodeMemory::Where where)
      : memory_(node, bytes, agree_on, what, where) {}
  NodeMemory memory_;
};

/// Segments in host memory (core/detail/node_memory.hpp says why not an
/// MPI-3 window).
class NodeSegments final : public Segments {
 public:
  NodeSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on)
      : Segments(node, bytes, agree_on, "shared exchange", NodeMemory::Where::host) {}
};

/// Whether this build maps other processes' device memory (CUDA or HIP IPC).
bool device_segments_built();

/// Segments in the memory of this process's GPU: NodeMemory's device blocks
/// (core/src/device_node_memory.cpp), ordered by interprocess events
/// (device_segments.cpp).
class DeviceSegments final : public Segments {
 public:
  /// Collective over `node`: `bytes` for this rank.  Throws Error on every
  /// rank of `agree_on` where a rank cannot allocate its segment or open a
  /// peer's, or the build has no device IPC.
  DeviceSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on);
  ~DeviceSegments() override;

  void hand_over(PlacedBuffers& b) override;
  void before_pack(PlacedBuffers& b) override;
  void after_pack(PlacedBuffers& b) override;
  void before_unpack(PlacedBuffers& b) override;
  void after_unpack(PlacedBuffers& b) override;

 private:
  void release();
  /// Records this process's event of `events` on the step's stream.
  void record_mine(const std::vector<void*>& events, PlacedBuffers& b) const;
  // Per node rank, an interprocess event (cudaEvent_t / hipEvent_t) recorded after its
  // packs and one after its unpacks and hand-overs: this process's own, the peers' opened.
  std::vector<void*> packed_, unpacked_;
};

}  // namespace distarray::detail
