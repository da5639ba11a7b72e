#pragma once
// The distarray command's report of a plan: reduced over ranks (times: the
// slowest rank; counts: summed), printed as a table on rank 0 and optionally
// written as JSON.

#include <distarray/redist/plan_report.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace distarray::cli {

struct Summary {
  std::string title, from, to, method, schedule, exchange, cost_model, verified;
  bool failed = false;
  int ranks = 1, repeat = 1, steps = 0, max_peers = 0;
  int trials = 0;  ///< timed step executions the automatic engine spent trying engines, most on a rank
  int pack_launches = 0, unpack_launches = 0, local_launches = 0;  ///< of the last execution, most on a rank
  index_t elements = 0, element_bytes = 0;
  index_t messages = 0, bytes_sent = 0, bytes_local = 0;  // per execution, all ranks
  double plan_s = 0, pack_s = 0, staging_s = 0, exchange_s = 0, unpack_s = 0,
         local_s = 0;  // slowest rank, per execution (plan: once)
  /// Whole executions (each after a barrier, the slowest rank's): a cold first
  /// one or one descheduled run moves the mean of ten, not the median, which
  /// the peers of bench/compare report.
  double median_s = 0, fastest_s = 0;
};

/// Reduces every rank's report over `comm` (collective): its times per
/// activity since `untimed` (the report before the timed executions);
/// `execution_seconds`: each timed execution's time, fastest first.
Summary summarize(const PlanReport& r, const PlanReport& untimed, MPI_Comm comm,
                  const std::vector<double>& execution_seconds);

/// Collective: throws on every rank where rank 0 cannot write `json_path`
/// (empty: nothing to check), before a run that would learn it only at
/// its end.  A file already there is left as it is.
void check_json_path(const std::string& json_path, MPI_Comm comm);

/// The table on rank 0; JSON to `json_path` unless it is empty.
void print(const Summary& s, const std::string& json_path, MPI_Comm comm);

}  // namespace distarray::cli
