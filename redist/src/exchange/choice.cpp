// The engine of a step, decided once and together (ARCHITECTURE Sec. 4.8).

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>

#include "exchange.hpp"
#include "node_segments.hpp"

#include <Kokkos_Core.hpp>

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace distarray::detail {

namespace {

/// worth_typing (exchange_choice.hpp) for a table's runs.
bool table_worth_typing(const CopyTable& table, std::size_t element_bytes) {
  index_t runs = 0;  // contiguous pieces: a strided run is one per element
  for (const auto& m : table.messages) {
    const CopyRow& first = table.rows[std::size_t(m.rows_begin)];
    for (index_t k = first.runs_begin; k < first.runs_end; ++k) {
      const CopyRun& run = table.runs[std::size_t(k)];
      runs += (m.rows_end - m.rows_begin) * (run.stride == 1 ? 1 : run.length);
    }
  }
  // No run at all: nothing to pack, so no buffer either.
  const double mean = runs == 0 ? std::numeric_limits<double>::infinity()
                                : double(table.total) * double(element_bytes) / double(runs);
  return worth_typing(mean, table.strided);
}

bool all_ranks(MPI_Comm comm, bool mine, MPI_Op op) {
  int value = mine;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, op, comm));
  return value != 0;
}

/// The shared engine's prospects for a step (collective over `comm`):
/// whether it can run (every rank's kernels can write segments where they
/// are, and every node has room for them in shared memory; device segments
/// need every rank on one node, as MPI moves other nodes' messages from the
/// segments, and a build with CUDA IPC), and whether some rank shares its
/// node with another (else every message goes by MPI anyway).
struct SharedOutlook {
  bool runs, shares_nodes;
};
SharedOutlook shared_outlook(MPI_Comm comm, const CopyTable& send, const CopyTable& recv,
                             std::size_t element_bytes, SegmentMemory segments) {
  MPI_Comm node = node_communicator(comm);
  // Asked on every rank: collective on the node, whatever this rank's segments.
  const bool room = node_has_room(node, shared_window_bytes(send, recv, element_bytes));
  bool runs = false;
  if (segments == SegmentMemory::host)
    runs = room;
  else if (segments == SegmentMemory::device)
    runs = device_segments_built() && ranks_of(node) == ranks_of(comm);
  MPI_Comm_free(&node);
  return {all_ranks(comm, runs, MPI_LAND), ranks_share_a_node(comm)};
}

}  // namespace

bool ranks_share_a_node(MPI_Comm comm) {
  MPI_Comm node = node_communicator(comm);
  const int node_ranks = ranks_of(node);
  MPI_Comm_free(&node);
  return all_ranks(comm, node_ranks > 1, MPI_LOR);
}

ExchangeChoice choose_exchange(MPI_Comm comm, const CopyTable& send, const CopyTable& recv,
                               std::size_t element_bytes, const PlanOptions& options, bool mpi_reads_arrays,
                               const EngineMemo& memo, SegmentMemory segments) {
  ExchangeChoice c;
  c.device_segments = segments == SegmentMemory::device;
  if (options.exchange == ExchangeEngine::encoded || options.exchange == ExchangeEngine::p2p) {
    c.engine = options.exchange;
    return c;
  }
  ExchangeEngine asked = options.exchange;
  if (asked == ExchangeEngine::shared) {
    if (shared_outlook(comm, send, recv, element_bytes, segments).runs) {
      c.engine = ExchangeEngine::shared;
      return c;
    }
    asked = ExchangeEngine::alltoallv;  // no segments the kernels write, or no room: packed through MPI
  }
  // Collectives take int byte counts and displacements: usable only if every
  // rank's messages fit, decided together so that no rank waits in a
  // collective the others skip.
  const std::size_t limit = std::min<std::size_t>(options.max_message_bytes, INT_MAX);
  const bool fits =
      std::size_t(send.total) * element_bytes <= limit && std::size_t(recv.total) * element_bytes <= limit;
  if (!all_ranks(comm, fits, MPI_LAND)) return c;  // point-to-point, in chunks
  c.engine = mpi_reads_arrays ? asked : ExchangeEngine::alltoallv;
  if (c.engine == ExchangeEngine::datatype) {
    c.send_typed = c.recv_typed = true;
  } else if (c.engine == ExchangeEngine::automatic) {
    // Each rank types its own sides: packed bytes and typed elements have the
    // same type signature.  Datatypes are measured where some side is typed
    // on some rank.  Steps typed on every side are measured too: no packing
    // beats packing on a quiet machine, but on a busy one Open MPI's
    // fragment pipeline for datatypes took 8x alltoallv's time on the
    // default 2048^2 transpose (2 ranks while a build shared the 2 cores).
    c.send_typed = table_worth_typing(send, element_bytes);
    c.recv_typed = table_worth_typing(recv, element_bytes);
    c.typed_trial = all_ranks(comm, c.send_typed || c.recv_typed, MPI_LOR);
    // The shared window beside them where ranks share a node: one copy
    // fewer than alltoallv, but each message packed into another rank's
    // memory, which may be slower (another socket's), so it is measured too.
    // Device segments only where asked for (`shared`): that path has not yet
    // run on a GPU, and the automatic choice takes only what has.
    const SharedOutlook shared = shared_outlook(comm, send, recv, element_bytes, segments);
    c.shared_trial = shared.runs && shared.shares_nodes && segments == SegmentMemory::host;
    if (!c.typed_trial && !c.shared_trial) c.engine = ExchangeEngine::alltoallv;
    // Every rank holds the same wisdom: they take the same engine, one it
    // can run here, without measuring; the automatic engine still watches it.
    if (c.engine == ExchangeEngine::automatic && memo.wisdom) {
      const auto known = memo.wisdom->engine(memo.key);
      if ((known == ExchangeEngine::datatype && c.typed_trial) ||
          (known == ExchangeEngine::shared && c.shared_trial) || known == ExchangeEngine::alltoallv)
        c.known = known;
    }
  }
  if (c.engine == ExchangeEngine::alltoallv || c.engine == ExchangeEngine::shared)
    c.send_typed = c.recv_typed = false;
  if (c.engine != ExchangeEngine::automatic) c.typed_trial = c.shared_trial = false;
  return c;
}

MpiDeviceMemory mpi_device_memory() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1 ? MpiDeviceMemory::reads : MpiDeviceMemory::cannot;
#elif defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT)
  return MpiDeviceMemory::cannot;  // an Open MPI built without CUDA
#else
  return MpiDeviceMemory::unknown;
#endif
}

GpuAwareDeclaration gpu_aware_declaration() {
  static const GpuAwareDeclaration declared = [] {
    const char* text = std::getenv("DISTARRAY_GPU_AWARE_MPI");
    if (text && std::string_view(text) == "0") return GpuAwareDeclaration::staged;
    if (text && std::string_view(text) == "1") return GpuAwareDeclaration::direct;
    return GpuAwareDeclaration::none;
  }();
  return declared;
}

bool staged_buffers(BufferStaging staging, bool host_space, MPI_Comm comm, GpuAwareDeclaration declared) {
  if (staging == BufferStaging::host) return true;
  if (host_space) return false;  // the same space on every rank
  const MpiDeviceMemory mpi = mpi_device_memory();
  bool staged = mpi != MpiDeviceMemory::reads;
  if (staging == BufferStaging::none) {
    agree<UsageError>(comm, mpi == MpiDeviceMemory::cannot,
                      "staging none: this MPI library says it cannot read device memory "
                      "(MPIX_Query_cuda_support() is 0); use staging auto or host");
    staged = false;
  } else if (declared == GpuAwareDeclaration::staged) {
    staged = true;
  } else if (declared == GpuAwareDeclaration::direct && mpi == MpiDeviceMemory::cannot) {
    static const bool warned = [] {  // once per process: the declaration is the same every time
      std::fprintf(stderr,
                   "distarray: DISTARRAY_GPU_AWARE_MPI=1 ignored: this MPI library says it cannot read "
                   "device memory; buffers are staged through host memory\n");
      return true;
    }();
    (void)warned;
  } else if (declared == GpuAwareDeclaration::direct) {
    staged = false;
  }
  return all_ranks(comm, staged, MPI_LOR);
}

}  // namespace distarray::detail
