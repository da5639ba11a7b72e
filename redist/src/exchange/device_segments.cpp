// DeviceSegments (node_segments.hpp): each rank allocates its segment with
// cudaMalloc (Kokkos' allocations may come from a stream-ordered pool,
// whose memory has no IPC handle), the node's ranks exchange the handles,
// each opens its peers' once, and the ranks agree at each stage.  Released
// without a collective, like NodeSegments: a rank closes its peers' mappings
// and frees its own, after its last execution (which every rank's kernel
// writes have completed before: the engine's node barrier).

#include "node_segments.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <Kokkos_Macros.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include <string>

namespace distarray::detail {

#if defined(KOKKOS_ENABLE_CUDA)

namespace {

/// `what` failed with `status`, for an error message.
std::string failed(const std::string& what, cudaError_t status) {
  return what + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
}

}  // namespace

bool device_segments_built() { return true; }

DeviceSegments::DeviceSegments(MPI_Comm node, std::size_t bytes, MPI_Comm agree_on) : me_(rank_of(node)) {
  const int ranks = ranks_of(node);
  maps_.assign(std::size_t(ranks), nullptr);
  sizes_.assign(std::size_t(ranks), 0);
  std::string error;
  void* mine = nullptr;
  cudaIpcMemHandle_t handle{};
  if (const cudaError_t s = cudaMalloc(&mine, std::max<std::size_t>(bytes, 1)); s != cudaSuccess)
    error = failed("cudaMalloc of " + std::to_string(bytes) + " bytes", s);
  else if (const cudaError_t h = cudaIpcGetMemHandle(&handle, mine); h != cudaSuccess)
    error = failed("cudaIpcGetMemHandle", h);
  maps_[std::size_t(me_)] = static_cast<char*>(mine);
  try {
    agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
    std::vector<cudaIpcMemHandle_t> handles(static_cast<std::size_t>(ranks));
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
      const cudaError_t s =
          cudaIpcOpenMemHandle(&theirs, handles[std::size_t(r)], cudaIpcMemLazyEnablePeerAccess);
      if (s != cudaSuccess) error = failed("cudaIpcOpenMemHandle of node rank " + std::to_string(r), s);
      maps_[std::size_t(r)] = static_cast<char*>(theirs);
    }
    agree<Error>(agree_on, !error.empty(), "shared exchange on device memory: " + error);
  } catch (...) {
    release();
    throw;
  }
}

void DeviceSegments::release() {
  for (std::size_t r = 0; r < maps_.size(); ++r) {
    if (!maps_[r]) continue;
    // Errors ignored: nothing to do about them in a destructor.
    if (int(r) == me_)
      (void)cudaFree(maps_[r]);
    else
      (void)cudaIpcCloseMemHandle(maps_[r]);
  }
  maps_.clear();
}

#else

bool device_segments_built() { return false; }

DeviceSegments::DeviceSegments(MPI_Comm, std::size_t, MPI_Comm agree_on) {
  agree<Error>(agree_on, true, "shared exchange on device memory: this build has no CUDA IPC");
}

void DeviceSegments::release() {}

#endif

DeviceSegments::~DeviceSegments() { release(); }

}  // namespace distarray::detail
