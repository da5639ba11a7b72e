#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum/splitmix64.hpp is internal: include <distarray/io.hpp>"
#endif
// SplitMix64's finalizer (Steele, Lea and Flood, OOPSLA 2014): the 64-bit
// mixing step of the checkpoint checksums and the rollback journal.

#include <cstdint>

namespace distarray::detail {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

}  // namespace distarray::detail
