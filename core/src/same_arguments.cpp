// agree_same_arguments (same_arguments.hpp).

#include "same_arguments.hpp"

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <cstdint>

namespace distarray::detail {

namespace {

/// FNV-1a, 64 bits: equal texts hash alike on every rank.
std::uint64_t hash_of(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

}  // namespace

void agree_same_arguments(MPI_Comm comm, const std::string& call,
                          const std::vector<CallArgument>& arguments) {
  // Per argument the maximum of h and of ~h (~ the minimum of h): one reduction.
  std::vector<std::uint64_t> most;
  for (const auto& a : arguments) {
    const std::uint64_t h = hash_of(a.value);
    most.insert(most.end(), {h, ~h});
  }
  DISTARRAY_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, most.data(), int(most.size()), MPI_UINT64_T, MPI_MAX, comm));
  for (std::size_t i = 0; i < arguments.size(); ++i)
    if (most[2 * i] != ~most[2 * i + 1])
      throw UsageError(call + ": ranks disagree on " + arguments[i].name + " (this rank: " +
                       arguments[i].value + "); a collective call takes the same arguments on every rank");
}

}  // namespace distarray::detail
