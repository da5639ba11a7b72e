#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/core/detail/index_tuples.hpp is internal: include <distarray/core.hpp>"
#endif
// The odometer over a box of positions, written once: the tensor products of
// per-dimension peers, message rows, hyperslab pieces and checksum rows all
// walk their index tuples with it.

#include <cstddef>
#include <utility>

namespace distarray::detail {

/// Calls f(pos) for every tuple with 0 <= pos[k] < sizes[k], in row-major
/// order (the last position fastest).  `Positions` is a std::array or a
/// std::vector of integers.  Nothing when a size is 0; the empty tuple once
/// when there are no positions.
template <class Positions, class F>
void for_each_tuple(const Positions& sizes, F&& f) {
  for (const auto s : sizes)
    if (!(s > 0)) return;
  Positions pos = sizes;
  for (auto& p : pos) p = 0;
  while (true) {
    f(std::as_const(pos));
    std::size_t k = pos.size();
    for (; k > 0; --k) {
      if (++pos[k - 1] < sizes[k - 1]) break;
      pos[k - 1] = 0;
    }
    if (k == 0) return;
  }
}

}  // namespace distarray::detail
