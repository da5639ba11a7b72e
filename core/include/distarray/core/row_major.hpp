#pragma once
// Row-major (C order) index arithmetic on D-dimensional extents.

#include <distarray/core/types.hpp>

#include <array>

namespace distarray {

template <int D>
using Index = std::array<index_t, D>;

/// Number of elements in a box of the given extents.
template <std::size_t D>
constexpr index_t element_count(const std::array<index_t, D>& extents) {
  index_t n = 1;
  for (index_t e : extents) n *= e;
  return n;
}

/// Linear offset of multi-index i in a row-major box of the given extents.
template <std::size_t D>
constexpr index_t row_major_offset(const std::array<index_t, D>& i, const std::array<index_t, D>& extents) {
  index_t off = 0;
  for (std::size_t d = 0; d < D; ++d) off = off * extents[d] + i[d];
  return off;
}

/// Inverse of row_major_offset.
template <std::size_t D>
constexpr std::array<index_t, D> row_major_index(index_t off, const std::array<index_t, D>& extents) {
  std::array<index_t, D> i{};
  for (std::size_t d = D; d-- > 0;) {
    i[d] = off % extents[d];
    off /= extents[d];
  }
  return i;
}

}  // namespace distarray
