// NodeMemory (node_memory.hpp) on the node's GPU: each rank allocates its
// block with cudaMalloc / hipMalloc (Kokkos' allocations may come from a
// stream-ordered pool, whose memory has no IPC handle), the node's ranks
// exchange the handles and agree, each opens its peers' once, and the ranks
// agree again.  Released without a collective, like the host blocks: a rank
// waits for its own device work (whose stream waited for every peer's
// writes into its block: the shared engine's events), closes its peers'
// mappings and frees its own.

#include "gpu_ipc.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/detail/node_memory.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <string>
#include <vector>

namespace distarray::detail {

#if defined(DISTARRAY_GPU_IPC)

void NodeMemory::map_device(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on, const char* what) {
  const auto failed = [&](const std::string& call, gpu::error_t status) {
    return std::string(what) + ": " + gpu::name(call.c_str()) + ": " + gpu::describe(status);
  };
  std::string error;
  void* mine = nullptr;
  gpu::mem_handle_t handle{};
  if (const gpu::error_t s = gpu::allocate(&mine, bytes); s != gpu::success)
    error = failed("Malloc of " + std::to_string(bytes) + " bytes", s);
  else if (const gpu::error_t h = gpu::get_mem_handle(&handle, mine); h != gpu::success)
    error = failed("IpcGetMemHandle", h);
  maps_[std::size_t(me_)] = static_cast<char*>(mine);
  try {
    agree<Error>(agree_on, !error.empty(), error);
    std::vector<gpu::mem_handle_t> handles(maps_.size());
    DISTARRAY_MPI_CHECK(MPI_Allgather(&handle, int(sizeof handle), MPI_BYTE, handles.data(),
                                      int(sizeof handle), MPI_BYTE, node));
    for (int r = 0; r < ranks() && error.empty(); ++r) {
      if (r == me_) continue;
      void* theirs = nullptr;
      if (const gpu::error_t s = gpu::open_mem_handle(&theirs, handles[std::size_t(r)]); s != gpu::success)
        error = failed("IpcOpenMemHandle of node rank " + std::to_string(r), s);
      maps_[std::size_t(r)] = static_cast<char*>(theirs);
    }
    agree<Error>(agree_on, !error.empty(), error);
  } catch (...) {
    unmap_device();
    throw;
  }
}

void NodeMemory::unmap_device() {
  // Errors ignored: nothing to do about them in a destructor.
  if (!maps_.empty()) (void)gpu::synchronize_device();
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

void NodeMemory::map_device(MPI_Comm, std::size_t, MPI_Comm agree_on, const char* what) {
  agree<Error>(agree_on, true, std::string(what) + ": this build has no CUDA or HIP IPC");
}

void NodeMemory::unmap_device() { maps_.clear(); }

#endif

}  // namespace distarray::detail
