#pragma once
// Splitting messages for MPI calls whose counts are int: a message of any
// size travels as consecutive chunks of at most `limit` bytes.

#include <cstddef>
#include <vector>

namespace distarray::detail {

struct Chunk {
  std::size_t offset;  ///< bytes from the message start
  int bytes;
};

/// Consecutive chunks covering [0, bytes), each at most `limit` (1..INT_MAX) bytes.
std::vector<Chunk> split_message(std::size_t bytes, std::size_t limit);

}  // namespace distarray::detail
