#pragma once
// The GPU runtime calls of node memory on a device (device_node_memory.cpp)
// and of the shared engine's device segments (redist's device_segments.cpp,
// which includes this private header of core) under one name for CUDA and
// HIP, whose IPC APIs are the same call for call: an allocation and its
// interprocess handle, opened in another process; interprocess events; a
// stream waiting for an event.  DISTARRAY_GPU_IPC is defined where the
// build has either runtime.

#include <Kokkos_Macros.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#define DISTARRAY_GPU_IPC
#define DISTARRAY_GPU(name) cuda##name
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime_api.h>
#define DISTARRAY_GPU_IPC
#define DISTARRAY_GPU(name) hip##name
#endif

#if defined(DISTARRAY_GPU_IPC)

#include <cstddef>
#include <string>

namespace distarray::detail::gpu {

using error_t = DISTARRAY_GPU(Error_t);
using event_t = DISTARRAY_GPU(Event_t);
using stream_t = DISTARRAY_GPU(Stream_t);
using mem_handle_t = DISTARRAY_GPU(IpcMemHandle_t);
using event_handle_t = DISTARRAY_GPU(IpcEventHandle_t);

inline constexpr error_t success = DISTARRAY_GPU(Success);

/// The runtime's name of a call: "cuda" or "hip" before `call`.
inline std::string name(const char* call) {
#if defined(KOKKOS_ENABLE_CUDA)
  return std::string("cuda") + call;
#else
  return std::string("hip") + call;
#endif
}

/// The error's name and description, for a message.
inline std::string describe(error_t e) {
  return std::string(DISTARRAY_GPU(GetErrorName)(e)) + " (" + DISTARRAY_GPU(GetErrorString)(e) + ")";
}

inline error_t allocate(void** p, std::size_t bytes) { return DISTARRAY_GPU(Malloc)(p, bytes); }
inline error_t free(void* p) { return DISTARRAY_GPU(Free)(p); }
inline error_t get_mem_handle(mem_handle_t* h, void* p) { return DISTARRAY_GPU(IpcGetMemHandle)(h, p); }
/// Maps another process's allocation into this one.
inline error_t open_mem_handle(void** p, mem_handle_t h) {
  return DISTARRAY_GPU(IpcOpenMemHandle)(p, h, DISTARRAY_GPU(IpcMemLazyEnablePeerAccess));
}
inline error_t close_mem_handle(void* p) { return DISTARRAY_GPU(IpcCloseMemHandle)(p); }

/// An event another process can wait for (no timing).
inline error_t create_interprocess_event(event_t* e) {
  return DISTARRAY_GPU(EventCreateWithFlags)(
      e, DISTARRAY_GPU(EventDisableTiming) | DISTARRAY_GPU(EventInterprocess));
}
inline error_t get_event_handle(event_handle_t* h, event_t e) {
  return DISTARRAY_GPU(IpcGetEventHandle)(h, e);
}
inline error_t open_event_handle(event_t* e, event_handle_t h) {
  return DISTARRAY_GPU(IpcOpenEventHandle)(e, h);
}
inline error_t destroy_event(event_t e) { return DISTARRAY_GPU(EventDestroy)(e); }
inline error_t record(event_t e, stream_t s) { return DISTARRAY_GPU(EventRecord)(e, s); }
inline error_t wait(stream_t s, event_t e) { return DISTARRAY_GPU(StreamWaitEvent)(s, e, 0); }
inline error_t synchronize_device() { return DISTARRAY_GPU(DeviceSynchronize)(); }

}  // namespace distarray::detail::gpu

#undef DISTARRAY_GPU

#endif
