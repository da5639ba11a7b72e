// DeviceSegments (node_segments.hpp), on CUDA or HIP (core's gpu_ipc.hpp:
// the same calls): the segments are a NodeMemory on the device, whose
// release waits for this process's stream (the engine's node barrier has
// every rank's writes of its last execution before it).
//
// Interprocess events (cudaIpcGetEventHandle / hipIpcGetEventHandle) order the node's kernels on
// the device, with no host synchronisation (issue 52, item 2): each rank
// records its own after each pack and unpack on the step's stream, and a
// stream waits for the peers' before the next.  A wait takes the peer's
// latest record when it is made, and the node barrier of each execution
// has every rank record its pack before any rank's unpack waits for it; a
// later record (the peer's next execution already packed) only waits
// longer, and never for a kernel that waits in turn: a pack waits for
// unpacks that came before it.

#include "gpu_ipc.hpp"
#include "node_segments.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <string>
#include <vector>

namespace distarray::detail {

#if defined(DISTARRAY_GPU_IPC)

namespace {

/// The runtime's `call` failed with `status`, for an error message.
std::string failed(const std::string& call, gpu::error_t status) {
  return call + ": " + gpu::describe(status);
}

/// Throws where a runtime call of an execution failed (a device or a
/// mapping broken: nothing the ranks could agree on beforehand).
void check(gpu::error_t status, const char* call) {
  if (status != gpu::success)
    throw Error(failed("shared exchange on device memory: " + gpu::name(call), status));
}

/// Collective over `node`: this rank's interprocess event made, every
/// peer's opened, into `events` (by node rank); what failed, else empty.
std::string open_events(MPI_Comm node, std::vector<void*>& events) {
  const int me = rank_of(node);
  events.assign(std::size_t(ranks_of(node)), nullptr);
  std::string error;
  gpu::event_t mine = nullptr;
  gpu::event_handle_t handle{};
  if (const gpu::error_t s = gpu::create_interprocess_event(&mine); s != gpu::success)
    error = failed(gpu::name("EventCreateWithFlags"), s);
  else if (const gpu::error_t h = gpu::get_event_handle(&handle, mine); h != gpu::success)
    error = failed(gpu::name("IpcGetEventHandle"), h);
  events[std::size_t(me)] = mine;
  std::vector<gpu::event_handle_t> handles(events.size());
  DISTARRAY_MPI_CHECK(MPI_Allgather(&handle, int(sizeof handle), MPI_BYTE, handles.data(), int(sizeof handle),
                                    MPI_BYTE, node));
  for (std::size_t r = 0; r < events.size() && error.empty(); ++r) {
    if (int(r) == me) continue;
    gpu::event_t theirs = nullptr;
    if (const gpu::error_t s = gpu::open_event_handle(&theirs, handles[r]); s != gpu::success)
      error = failed(gpu::name("IpcOpenEventHandle") + " of node rank " + std::to_string(r), s);
    events[r] = theirs;
  }
  return error;
}

/// `stream` (a cudaStream_t or hipStream_t) waits for every peer's latest
/// record of its event in `events`.
void wait_for_peers(const std::vector<void*>& events, int me, void* stream) {
  for (std::size_t r = 0; r < events.size(); ++r)
    if (int(r) != me)
      check(gpu::wait(static_cast<gpu::stream_t>(stream), static_cast<gpu::event_t>(events[r])),
            "StreamWaitEvent");
}

}  // namespace

bool device_segments_built() { return true; }

DeviceSegments::DeviceSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on)
    : Segments(node, bytes, agree_on, "shared exchange on device memory", NodeMemory::Where::device) {
  try {
    for (auto* events : {&packed_, &unpacked_}) {
      const std::string error = open_events(node, *events);
      agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
    }
  } catch (...) {
    release();
    throw;
  }
}

void DeviceSegments::hand_over(PlacedBuffers& b) { record_mine(unpacked_, b); }
void DeviceSegments::before_pack(PlacedBuffers& b) {
  wait_for_peers(unpacked_, memory_.me(), b.device_stream());
}
void DeviceSegments::after_pack(PlacedBuffers& b) { record_mine(packed_, b); }
void DeviceSegments::before_unpack(PlacedBuffers& b) {
  wait_for_peers(packed_, memory_.me(), b.device_stream());
}
void DeviceSegments::after_unpack(PlacedBuffers& b) { record_mine(unpacked_, b); }
void DeviceSegments::record_mine(const std::vector<void*>& events, PlacedBuffers& b) const {
  check(gpu::record(static_cast<gpu::event_t>(events[std::size_t(memory_.me())]),
                    static_cast<gpu::stream_t>(b.device_stream())),
        "EventRecord");
}

void DeviceSegments::release() {
  // This process's kernels that wait for the events complete first.  Errors
  // ignored: nothing to do about them in a destructor.
  (void)gpu::synchronize_device();
  for (auto* events : {&packed_, &unpacked_})
    for (void* e : *events)
      if (e) (void)gpu::destroy_event(static_cast<gpu::event_t>(e));
  packed_.clear();
  unpacked_.clear();
}

#else

bool device_segments_built() { return false; }

// (NodeMemory refuses device memory where the build has no IPC.)
DeviceSegments::DeviceSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on)
    : Segments(node, bytes, agree_on, "shared exchange on device memory", NodeMemory::Where::device) {}

void DeviceSegments::hand_over(PlacedBuffers&) {}
void DeviceSegments::before_pack(PlacedBuffers&) {}
void DeviceSegments::after_pack(PlacedBuffers&) {}
void DeviceSegments::before_unpack(PlacedBuffers&) {}
void DeviceSegments::after_unpack(PlacedBuffers&) {}
void DeviceSegments::record_mine(const std::vector<void*>&, PlacedBuffers&) const {}
void DeviceSegments::release() {}

#endif

DeviceSegments::~DeviceSegments() { release(); }

}  // namespace distarray::detail
