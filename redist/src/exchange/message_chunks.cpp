#include "message_chunks.hpp"
#include <distarray/core/error.hpp>

#include <algorithm>
#include <climits>

namespace distarray::detail {

std::vector<Chunk> split_message(std::size_t bytes, std::size_t limit) {
  if (limit < 1 || limit > std::size_t(INT_MAX))
    throw Error("message chunk limit " + std::to_string(limit) + " is outside 1.." + std::to_string(INT_MAX));
  std::vector<Chunk> chunks;
  for (std::size_t off = 0; off < bytes; off += limit)
    chunks.push_back({off, int(std::min(limit, bytes - off))});
  return chunks;
}

}  // namespace distarray::detail
