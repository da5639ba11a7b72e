#pragma once
// What a plan did: its shape (set when built) and its time per activity
// (pack, staging, exchange, unpack, local; accumulated over executions).
// Times are this rank's, in seconds.

#include <distarray/core/types.hpp>

#include <string>
#include <vector>

namespace distarray {

struct PlanReport {
  std::string method;    ///< the chosen candidate's name, as Plan::explain() lists it
  std::string schedule;  ///< the 1-D generator of each dimension
  std::string exchange;  ///< the steps' engines ("auto(measuring)" until the automatic choice is made)
  /// False while an automatic engine still tries the engines on the plan's
  /// first executions (a warm-up, then at most `most_trial_rounds` rounds of
  /// one execution per engine it can run): time a plan once it is settled.
  /// The same on every rank, so loops may stop on it: true from the first
  /// execution whose start found every rank's engines settled (steps on
  /// different lines of ranks settle at different executions).
  bool settled = true;
  static constexpr int most_trial_rounds = 8;
  std::string cost_model;  ///< where ts and te came from: "calibrated", "wisdom", "options", ...
  int steps = 0;           ///< exchanges per execution (indirect: one per changed dimension)
  int peers = 0;           ///< distinct ranks this rank sends to or receives from, self excluded
  int messages_sent = 0;   ///< per execution, self excluded
  int messages_received = 0;
  index_t bytes_sent = 0;      ///< per execution, self excluded
  index_t bytes_received = 0;  ///< per execution, self excluded
  index_t bytes_local = 0;     ///< per execution: the message to oneself, copied without MPI or buffers

  /// With a renumbered destination: the rank holding each destination grid
  /// coordinate (row-major); empty otherwise.
  std::vector<int> destination_ranks;

  /// Kernel launches of the last execution: one per side per step (p2p and
  /// encoded unpack on arrival in at most four waves, one launch each), and
  /// one per step for the message to oneself, straight from source to destination.
  int pack_launches = 0;
  int unpack_launches = 0;
  int local_launches = 0;

  int executions = 0;
  /// Step executions the automatic engine spent trying engines: its first
  /// (a warm-up, then rounds of trials), the re-trials of the engines it did
  /// not keep, and every contender measured again where the choice fell behind.
  int trial_executions = 0;
  /// Executions whose start was agreed (the refusal checks of every rank)
  /// in the first exchange's own synchronisation instead of a reduction of
  /// its own: the shared engine's, on one node (Executor::agree_to_start).
  int agreements_in_exchange = 0;
  double plan_seconds = 0;
  double pack_seconds = 0;
  double exchange_seconds = 0;
  double unpack_seconds = 0;
  /// Copying the message to oneself (started after the messages to others
  /// are on their way).
  double local_seconds = 0;
  /// Copies of staged buffers between device and host memory (only where
  /// buffers are staged; not in pack or unpack).
  double staging_seconds = 0;
};

}  // namespace distarray
