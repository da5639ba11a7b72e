#pragma once
// An MPI datatype for a sequence of typed blocks, with its periodic stretches
// folded into vectors, so that the type's description (and what MPI builds
// and commits) grows with the layouts' periods, not with the number of
// blocks: the 65,536 runs of an 8192^2 cyclic(64) message become a few
// nested hvectors (ARCHITECTURE Sec. 4.8).
//
// Folding, repeated while it shortens the sequence:
//   1. consecutive blocks of one type at a constant spacing -> one hvector;
//   2. a group of k <= max_period such stretches that repeats at a constant
//      shift -> an hvector of the group's struct.
// Types are cached by their description, so equal groups share one handle
// and fold again at the next level (rows of rows, ragged tails apart).

#include <mpi.h>

#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace distarray::detail {

/// One block of a type map: one instance of `type` at `displacement` bytes.
struct TypedBlock {
  MPI_Aint displacement;
  MPI_Datatype type;
};

/// Owns the datatypes made while folding; equal descriptions give one handle.
class TypeCache {
 public:
  TypeCache() = default;
  TypeCache(const TypeCache&) = delete;
  TypeCache& operator=(const TypeCache&) = delete;
  ~TypeCache();

  /// `count` instances of `type`, `spacing` bytes apart (count 1: `type` itself).
  MPI_Datatype hvector(int count, MPI_Aint spacing, MPI_Datatype type);
  /// The members at their displacements (one member at 0: its type itself).
  MPI_Datatype group(const std::vector<std::pair<MPI_Aint, MPI_Datatype>>& members);
  /// The blocks, in order, folded (uncommitted; MPI_Type_dup it to keep it
  /// beyond the cache).
  MPI_Datatype sequence(std::vector<TypedBlock> blocks);

 private:
  std::map<std::tuple<int, MPI_Aint, MPI_Datatype>, MPI_Datatype> vectors_;
  std::map<std::vector<std::pair<MPI_Aint, MPI_Datatype>>, MPI_Datatype> groups_;
};

}  // namespace distarray::detail
