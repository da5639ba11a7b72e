#pragma once
#include <cstdint>

namespace distarray {

/// Global and local element indices and extents: 64-bit everywhere, so that
/// extents above 2^31 per dimension are exact.
using index_t = std::int64_t;

}  // namespace distarray
