#pragma once
// The communication cost model (Kaushik et al., ICS'94, Sec. 3): a message of
// n bytes costs ts + n*te; a phase costs, on the slowest rank,
//   max_messages * ts + max_bytes * te.
// ts and te are calibrated by a short collective ping-pong, cached on the
// communicator, and can be overridden by PlanOptions or by the environment
// variables DISTARRAY_TS and DISTARRAY_TE (seconds, seconds per byte).

#include <mpi.h>

#include <optional>
#include <string>

namespace distarray {

struct CostModel {
  /// Used where calibration cannot run (a communicator of one rank):
  /// 2 microseconds per message, 0.2 ns per byte (5 GB/s).
  static constexpr double default_ts = 2e-6;
  static constexpr double default_te = 2e-10;

  double ts = default_ts;           ///< seconds per message
  double te = default_te;           ///< seconds per byte
  std::string source = "defaults";  ///< "calibrated", "defaults", "wisdom", "environment" or "options"

  double cost(double messages, double bytes) const { return messages * ts + bytes * te; }
};

/// Throws Error unless `value` is a finite number >= 0; `what` names it.
double checked_cost_parameter(double value, const std::string& what);

class Wisdom;

/// ts and te for `comm`: the overrides if given, else DISTARRAY_TS / DISTARRAY_TE,
/// else a calibration cached on the communicator (collective the first time),
/// taken from `wisdom` when it has one for this communicator size (and
/// recorded there when measured).
CostModel cost_model_for(MPI_Comm comm, std::optional<double> ts = std::nullopt,
                         std::optional<double> te = std::nullopt, Wisdom* wisdom = nullptr);

}  // namespace distarray
