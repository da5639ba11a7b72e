#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/exchange_choice.hpp is internal: include <distarray/redist.hpp>"
#endif
// Which engine one exchange step runs, decided in one place and together by
// every rank of the step's communicator, and how its buffers reach MPI.

#include <distarray/redist/detail/tables/copy_table.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/wisdom.hpp>

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

namespace distarray::detail {

/// Where the automatic engine's decision for a step is remembered: a wisdom
/// file and the step's key (wisdom.hpp); no wisdom: measured every time.
struct EngineMemo {
  std::shared_ptr<Wisdom> wisdom;
  std::string key;
};

/// Runs of at least this many bytes are worth moving by datatype, in place.
constexpr double typed_run_bytes = 512;

/// The automatic engine's rule for one side of a step: MPI moves it in place
/// (a datatype) when its runs are contiguous, not a local transpose, and long
/// on average; shorter or strided runs are faster packed by the kernels.
inline bool worth_typing(double mean_run_bytes, bool strided) {
  return !strided && mean_run_bytes >= typed_run_bytes;
}

struct ExchangeChoice {
  /// Never `automatic` unless the step measures alltoallv against another engine.
  ExchangeEngine engine = ExchangeEngine::p2p;
  /// The sides MPI moves in place by derived datatypes (datatype; for
  /// automatic, the sides its datatype trial moves so).
  bool send_typed = false, recv_typed = false;
  /// Automatic: the engines measured beside alltoallv (the same on every rank).
  bool typed_trial = false, shared_trial = false;
  /// Automatic: the engine the wisdom names, taken without measuring (and
  /// watched like a measured choice).
  std::optional<ExchangeEngine> known;
  /// The shared engine's segments (shared, or its trial) in device memory.
  bool device_segments = false;

  /// Whether the step needs its own send and receive buffers (shared: its
  /// messages go into the receivers' window).
  bool send_buffer() const {
    return engine != ExchangeEngine::shared && (engine == ExchangeEngine::automatic || !send_typed);
  }
  bool recv_buffer() const {
    return engine != ExchangeEngine::shared && (engine == ExchangeEngine::automatic || !recv_typed);
  }
};

/// Where the shared engine's segments can live for a step's kernels: host
/// memory they write (shared memory), the memory of their GPU (CUDA IPC), or
/// nowhere (another device backend).
enum class SegmentMemory { host, device, none };

/// Collective over `comm`: the engine `options.exchange` asks for, as this
/// step can run it.  The collectives take int counts, so a step with a
/// message above `options.max_message_bytes` or INT_MAX on any rank runs
/// point-to-point in chunks; derived datatypes need arrays MPI can read
/// (`mpi_reads_arrays`).  The automatic engine types the sides whose runs are
/// contiguous and long, measures the shared engine too where ranks share a
/// node and it can run (below), and measures only when that leaves
/// something to compare and `memo` does not already know the answer.  The shared engine
/// needs segments its kernels write (`segments`, the same on every rank) and
/// room for them on every node, and in device memory every rank on one node
/// and a build with CUDA IPC; elsewhere the step packs through alltoallv.
ExchangeChoice choose_exchange(MPI_Comm comm, const CopyTable& send, const CopyTable& recv,
                               std::size_t element_bytes, const PlanOptions& options, bool mpi_reads_arrays,
                               const EngineMemo& memo = {}, SegmentMemory segments = SegmentMemory::host);

/// Collective over `comm`: whether some rank shares its node with another
/// (DISTARRAY_EMULATED_NODES applied).
bool ranks_share_a_node(MPI_Comm comm);

/// What the MPI library says, at run time, of the device memory of this
/// Kokkos build (Open MPI's MPIX_Query_cuda_support; `unknown` where it
/// cannot say).
enum class MpiDeviceMemory { reads, cannot, unknown };
MpiDeviceMemory mpi_device_memory();

/// What DISTARRAY_GPU_AWARE_MPI declares, read once per process: unset,
/// "0" (stage through host memory) or "1" (MPI reads device memory, for an
/// MPI library that cannot say so itself).
enum class GpuAwareDeclaration { none, staged, direct };
GpuAwareDeclaration gpu_aware_declaration();

/// Collective over `comm`: whether buffers in a space go to MPI through host
/// mirrors.  Each rank decides from `staging` as asked (`none` refused, on
/// every rank, where MPI says it cannot read device memory), or
/// automatically for spaces the host cannot access: staged unless MPI says
/// it reads device memory or, where MPI cannot say, `declared` is direct;
/// staged where MPI says it cannot, whatever is declared (with a warning), so
/// a wrong declaration never reaches MPI there.  Then every rank stages if
/// any does: MPI handed device pointers by some ranks and host buffers by
/// others would crash or move garbage.
bool staged_buffers(BufferStaging staging, bool host_space, MPI_Comm comm,
                    GpuAwareDeclaration declared = gpu_aware_declaration());

/// Whether MPI is handed the arrays and buffers where they live: host
/// memory, or device memory whose buffers are not staged (what the engines
/// that give MPI the arrays themselves, `datatype` and `encoded`, need).
inline bool mpi_reads_arrays(bool host_space, bool staged) { return host_space || !staged; }

}  // namespace distarray::detail
