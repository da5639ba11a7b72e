#pragma once
// Plan wisdom, as FFTW's: what plans measured, kept in a file so that a later
// process plans without measuring.  Two kinds of entry:
//   cost    the calibrated cost model (ts, te) of a communicator size;
//   engine  the exchange engine the automatic choice settled on for one step
//           of one plan: keyed by communicator size, element size, shape,
//           layout pair and storage orders.
// The file is text: a header line naming the format, distarray's version and
// the MPI library (anything else is stale), then one "key<TAB>value" per line.
// A stale or corrupt file is ignored with a warning (and replaced at the next
// record); a file that is not wisdom at all is never overwritten.  Rank 0
// reads and writes it; every rank sees the same entries, so that decisions
// taken from it agree.  The path comes from PlanOptions::wisdom or else the
// environment variable DISTARRAY_WISDOM; neither: no wisdom.

#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace distarray {

class Wisdom {
 public:
  /// Collective over `comm`: rank 0 reads `path` (a missing file is empty
  /// wisdom) and broadcasts what it holds.
  Wisdom(std::string path, MPI_Comm comm);

  /// The wisdom file `options` name: PlanOptions::wisdom, else
  /// DISTARRAY_WISDOM, else empty (none).
  static std::string path_for(const PlanOptions& options);
  /// The wisdom of path_for(options), or null when they name none.
  /// Collective over `comm`.
  static std::shared_ptr<Wisdom> for_options(const PlanOptions& options, MPI_Comm comm);

  const std::string& path() const { return path_; }
  /// The cost model {ts, te} measured on a communicator of `ranks` ranks.
  std::optional<std::pair<double, double>> cost(int ranks) const;
  /// The engine the automatic choice settled on for `key` (engine_key).
  std::optional<ExchangeEngine> engine(const std::string& key) const;

  /// Records an entry on every rank that calls it (with the same values) and
  /// writes the file from rank 0 of `comm`: merged with what the file holds
  /// now, through a temporary file and a rename.  A failure to write is a
  /// warning: wisdom is a cache.
  void record_cost(int ranks, double ts, double te, MPI_Comm comm);
  void record_engine(const std::string& key, ExchangeEngine engine, MPI_Comm comm);

 private:
  void record(const std::string& key, const std::string& value, MPI_Comm comm);

  std::string path_;
  std::map<std::string, std::string> entries_;
};

/// The key of step `step` of a plan on `ranks` ranks moving
/// `element_bytes`-byte elements; `plan` names the rest (shape, layouts,
/// storage orders, the chosen candidate).
std::string engine_key(int ranks, std::size_t element_bytes, const std::string& plan, int step);

}  // namespace distarray
