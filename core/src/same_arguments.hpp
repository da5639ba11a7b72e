#pragma once
// The arguments of a collective call, checked to be the same on every rank.
// Ranks that build a plan from different layouts, element sizes or options
// take different schedules and engines: they meet in mismatched collectives
// (MPI_ERR_TRUNCATE on one rank, a hang on the others) or exchange data that
// lands in the wrong place.  One reduction of 64-bit hashes at construction
// tells every rank the same thing, so every rank throws the same UsageError.

#include <mpi.h>

#include <string>
#include <vector>

namespace distarray::detail {

/// One argument of a collective call: what it is, and its value on this
/// rank as text (only what must agree: not a rank's own leading dimension).
struct CallArgument {
  std::string name;
  std::string value;
};

/// Collective over `comm` (every rank passes the same number of arguments):
/// UsageError on every rank where an argument's value differs between
/// ranks, naming `call`, the first such argument and this rank's value.
void agree_same_arguments(MPI_Comm comm, const std::string& call, const std::vector<CallArgument>& arguments);

}  // namespace distarray::detail
