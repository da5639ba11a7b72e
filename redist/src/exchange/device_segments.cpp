// DeviceSegments (node_segments.hpp), on CUDA or HIP (gpu_ipc.hpp: the
// same calls): each rank allocates its segment with cudaMalloc / hipMalloc
// (Kokkos' allocations may come from a stream-ordered pool, whose memory
// has no IPC handle), the node's ranks exchange the handles,
// each opens its peers' once, and the ranks agree at each stage.  Released
// without a collective, like NodeSegments: a rank closes its peers' mappings
// and frees its own, after its last execution (which every rank's kernel
// writes have completed before: the engine's node barrier), once its own
// stream has run dry.
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

DeviceSegments::DeviceSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on) : me_(rank_of(node)) {
  const int ranks = ranks_of(node);
  maps_.assign(std::size_t(ranks), nullptr);
  sizes_.assign(std::size_t(ranks), 0);
  std::string error;
  void* mine = nullptr;
  gpu::mem_handle_t handle{};
  if (const gpu::error_t s = gpu::allocate(&mine, std::max<std::size_t>(bytes, 1)); s != gpu::success)
    error = failed(gpu::name("Malloc") + " of " + std::to_string(bytes) + " bytes", s);
  else if (const gpu::error_t h = gpu::get_mem_handle(&handle, mine); h != gpu::success)
    error = failed(gpu::name("IpcGetMemHandle"), h);
  maps_[std::size_t(me_)] = static_cast<char*>(mine);
  try {
    agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
    std::vector<gpu::mem_handle_t> handles(static_cast<std::size_t>(ranks));
    unsigned long long size = bytes;
    DISTARRAY_MPI_CHECK(MPI_Allgather(&handle, int(sizeof handle), MPI_BYTE, handles.data(),
                                      int(sizeof handle), MPI_BYTE, node));
    std::vector<unsigned long long> sizes(static_cast<std::size_t>(ranks));
    DISTARRAY_MPI_CHECK(
        MPI_Allgather(&size, 1, MPI_UNSIGNED_LONG_LONG, sizes.data(), 1, MPI_UNSIGNED_LONG_LONG, node));
    sizes_.assign(sizes.begin(), sizes.end());
    for (int r = 0; r < ranks && error.empty(); ++r) {
      if (r == me_) continue;
      void* theirs = nullptr;
      const gpu::error_t s = gpu::open_mem_handle(&theirs, handles[std::size_t(r)]);
      if (s != gpu::success)
        error = failed(gpu::name("IpcOpenMemHandle") + " of node rank " + std::to_string(r), s);
      maps_[std::size_t(r)] = static_cast<char*>(theirs);
    }
    agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
    for (auto* events : {&packed_, &unpacked_}) {
      error = open_events(node, *events);
      agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
    }
  } catch (...) {
    release();
    throw;
  }
}

void DeviceSegments::before_pack(PlacedBuffers& b) { wait_for_peers(unpacked_, me_, b.device_stream()); }
void DeviceSegments::after_pack(PlacedBuffers& b) { record_mine(packed_, b); }
void DeviceSegments::before_unpack(PlacedBuffers& b) { wait_for_peers(packed_, me_, b.device_stream()); }
void DeviceSegments::after_unpack(PlacedBuffers& b) { record_mine(unpacked_, b); }
void DeviceSegments::record_mine(const std::vector<void*>& events, PlacedBuffers& b) const {
  check(gpu::record(static_cast<gpu::event_t>(events[std::size_t(me_)]),
                    static_cast<gpu::stream_t>(b.device_stream())),
        "EventRecord");
}

void DeviceSegments::release() {
  // This process's kernels that read or write the segments (and wait for
  // the events) complete first.  Errors ignored: nothing to do about them
  // in a destructor.
  (void)gpu::synchronize_device();
  for (auto* events : {&packed_, &unpacked_})
    for (void* e : *events)
      if (e) (void)gpu::destroy_event(static_cast<gpu::event_t>(e));
  packed_.clear();
  unpacked_.clear();
  for (std::size_t r = 0; r < maps_.size(); ++r) {
    if (!maps_[r]) continue;
    if (int(r) == me_)
      (void)gpu::free(maps_[r]);
    else
      (void)gpu::close_mem_handle(maps_[r]);
  }
  maps_.clear();
}

#else

bool device_segments_built() { return false; }

DeviceSegments::DeviceSegments(MPI_Comm, std::size_t, MPI_Comm agree_on) {
  agree<Error>(agree_on, true, "shared exchange on device memory: this build has no CUDA or HIP IPC");
}

void DeviceSegments::before_pack(PlacedBuffers&) {}
void DeviceSegments::after_pack(PlacedBuffers&) {}
void DeviceSegments::before_unpack(PlacedBuffers&) {}
void DeviceSegments::after_unpack(PlacedBuffers&) {}
void DeviceSegments::record_mine(const std::vector<void*>&, PlacedBuffers&) const {}
void DeviceSegments::release() {}

#endif

DeviceSegments::~DeviceSegments() { release(); }

}  // namespace distarray::detail
