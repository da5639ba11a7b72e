#pragma once
// How a Plan moves data: the multi-dimensional method, the 1-D schedule
// generator and the MPI exchange engine.  Each is a user-visible choice with
// a text name (for the distarray command) and an automatic default.

#include <distarray/redist/schedule.hpp>

#include <climits>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace distarray {

/// The multi-dimensional method (Thakur et al. Sec. 6).
enum class RedistMethod {
  automatic,   ///< direct unless the cost model picks otherwise
  direct,      ///< one exchange: each element straight to its final owner
  indirect,    ///< one 1-D redistribution per changed dimension, on the
               ///< per-dimension sub-communicators (same grid before and after)
  multiphase,  ///< the cheapest chain through intermediate block sizes (Kaushik et al.)
};

/// The MPI exchange engine.
enum class ExchangeEngine {
  automatic,  ///< alltoallv or datatype, whichever the first executions measure faster
  alltoallv,  ///< one MPI_Alltoallv of packed buffers
  p2p,        ///< non-blocking sends and receives; messages unpacked in waves as they arrive
  encoded,    ///< p2p whose messages carry their unpacking runs in a header (Hsu-Chung ICPP'97)
  datatype,   ///< one MPI_Alltoallw of derived datatypes built from the runs: no user-space packing
              ///< (host-accessible memory; other spaces fall back to packing)
  shared,     ///< each rank packs its messages for ranks of its node straight into their buffers in
              ///< node-shared memory, no MPI copy; messages to other nodes go by MPI (host-
              ///< accessible memory with room for the buffers; elsewhere alltoallv)
};

/// How exchange buffers in memory the host cannot access (a GPU's) reach MPI.
enum class BufferStaging {
  automatic,  ///< through host mirrors, unless DISTARRAY_GPU_AWARE_MPI=1 declares a GPU-aware MPI
  host,       ///< always through host mirrors (on host memory: an extra copy, used by the tests)
  none,       ///< the buffers themselves: the MPI library reads and writes device memory
};

std::string_view to_string(RedistMethod m);
std::string_view to_string(ExchangeEngine e);
std::string_view to_string(BufferStaging s);
/// Inverses of to_string; UsageError names an unknown value.
RedistMethod parse_redist_method(std::string_view text);
ExchangeEngine parse_exchange_engine(std::string_view text);
BufferStaging parse_buffer_staging(std::string_view text);

struct PlanOptions {
  RedistMethod method = RedistMethod::automatic;
  ScheduleMethod schedule = ScheduleMethod::automatic;
  ExchangeEngine exchange = ExchangeEngine::automatic;
  BufferStaging staging = BufferStaging::automatic;
  /// Largest piece one MPI call carries, in bytes; longer messages are split.
  /// Tests lower it to exercise the splitting with small arrays.
  std::size_t max_message_bytes = INT_MAX;
  /// Cost model overrides (seconds per message, seconds per byte); otherwise
  /// DISTARRAY_TS / DISTARRAY_TE, otherwise calibrated (cost_model.hpp).
  std::optional<double> ts, te;
  /// Build exactly the candidate of this name (as Plan::explain() prints it),
  /// overriding `method`; UsageError lists the names when none matches.
  std::string candidate;
  /// Let the plan renumber the destination grid's ranks (Kalns and Ni's
  /// processor mapping) when that keeps more data in place; the destination
  /// array must then be created on Plan::destination_comm().
  bool allow_renumbering = false;
  /// A wisdom file (wisdom.hpp): the cost model and the automatic engine
  /// decisions read from it instead of measured, and what is measured added
  /// to it; empty: the environment variable DISTARRAY_WISDOM, if set.
  std::string wisdom;
};

/// Every option but the wisdom file, as text ("method=auto schedule=auto ...").
std::string to_string(const PlanOptions& options);

}  // namespace distarray
