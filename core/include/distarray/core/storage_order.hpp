#pragma once
// StorageOrder: how a rank's local block lies in memory.  Row-major
// (Kokkos::LayoutRight, the default) keeps the last dimension contiguous;
// column-major (Kokkos::LayoutLeft) keeps the first.  A (block,*) -> (*,block)
// plan into a column-major array thus hands over the local transpose that FFT
// codes want (FFTW's TRANSPOSED_OUT, heFFTe's box order) inside its unpack,
// without a separate pass.

#include <distarray/core/row_major.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <type_traits>

namespace distarray {

enum class StorageOrder { row_major, column_major };

/// The StorageOrder of a Kokkos array layout (LayoutRight or LayoutLeft).
template <class KokkosLayout>
constexpr StorageOrder storage_order_of() {
  static_assert(
      std::is_same_v<KokkosLayout, Kokkos::LayoutRight> || std::is_same_v<KokkosLayout, Kokkos::LayoutLeft>,
      "distarray local blocks are Kokkos::LayoutRight or Kokkos::LayoutLeft");
  return std::is_same_v<KokkosLayout, Kokkos::LayoutLeft> ? StorageOrder::column_major
                                                          : StorageOrder::row_major;
}

/// Elements between neighbours along each dimension of a block of the given extents.
template <std::size_t D>
constexpr std::array<index_t, D> storage_strides(const std::array<index_t, D>& extents, StorageOrder order) {
  std::array<index_t, D> stride{};
  index_t step = 1;
  for (std::size_t k = 0; k < D; ++k) {
    const std::size_t d = order == StorageOrder::row_major ? D - 1 - k : k;
    stride[d] = step;
    step *= extents[d];
  }
  return stride;
}

/// Memory offset of multi-index i in a block of the given extents.
template <std::size_t D>
constexpr index_t storage_offset(const std::array<index_t, D>& i, const std::array<index_t, D>& extents,
                                 StorageOrder order) {
  const auto stride = storage_strides(extents, order);
  index_t off = 0;
  for (std::size_t d = 0; d < D; ++d) off += i[d] * stride[d];
  return off;
}

/// Inverse of storage_offset.
template <std::size_t D>
constexpr std::array<index_t, D> storage_index(index_t off, const std::array<index_t, D>& extents,
                                               StorageOrder order) {
  if (order == StorageOrder::row_major) return row_major_index(off, extents);
  std::array<index_t, D> reversed = extents;
  std::reverse(reversed.begin(), reversed.end());
  std::array<index_t, D> i = row_major_index(off, reversed);
  std::reverse(i.begin(), i.end());
  return i;
}

}  // namespace distarray
