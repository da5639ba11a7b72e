#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum.hpp is internal: include <distarray/io.hpp>"
#endif
// The order-independent checkpoint checksum (docs/checkpoint-format.md): a
// sum mod 2^64 over elements of a hash of (row-major global index, bytes),
// so any layout and rank count computes the same value from what it holds.
// Format 2 adds a seed from the element type and the shape, so that a
// dataset reshaped or retyped with the same bytes fails the check.

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace distarray::detail {

/// The finalizer of SplitMix64: a fast, well-mixing 64-bit hash.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// One element's share: its bytes in 8-byte words (a 4-byte element
/// zero-extended) chained through splitmix64 from its row-major global index.
inline std::uint64_t element_hash(std::uint64_t linear_index, const void* bytes, std::size_t size) {
  std::uint64_t h = splitmix64(linear_index);
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (std::size_t off = 0; off < size; off += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, p + off, std::min<std::size_t>(8, size - off));
    h = splitmix64(h ^ word);
  }
  return h;
}

/// Format 2's seed: the element type name's bytes, the rank and each extent
/// chained through splitmix64 (added once to the element sum).
inline std::uint64_t checksum_seed(const std::string& type, const std::vector<index_t>& shape) {
  std::uint64_t h = splitmix64(0x64697374617272ULL);  // "distarr"
  for (unsigned char c : type) h = splitmix64(h ^ c);
  h = splitmix64(h ^ shape.size());
  for (index_t e : shape) h = splitmix64(h ^ std::uint64_t(e));
  return h;
}

/// The element sum of the row-major local block `data` of grid coordinate
/// `c` (to be summed over ranks).  Global indices come from per-dimension
/// tables, so the loop does no division.
template <class T, int D>
std::uint64_t local_checksum(const Layout<D>& layout, const Coord<D>& c, const T* data) {
  const Index<D> shape = layout.shape(), ext = layout.local_extents(c);
  const index_t size = element_count(ext);
  if (size == 0) return 0;
  std::array<std::vector<index_t>, D> global;  // global index of each local index, per dimension
  for (int d = 0; d < D; ++d)
    for (index_t l = 0; l < ext[d]; ++l) global[d].push_back(layout.dist(d).global_index(c[d], l));
  std::uint64_t sum = 0;
  Index<D> rows = ext;  // one tuple per row: the last dimension is the row
  rows[D - 1] = 1;
  const T* row = data;
  for_each_tuple(rows, [&](const Index<D>& pos) {
    index_t base = 0;  // row-major global offset of the row, without the last dimension
    for (int d = 0; d < D - 1; ++d) base = (base + global[d][std::size_t(pos[d])]) * shape[d + 1];
    for (index_t j = 0; j < ext[D - 1]; ++j)
      sum += element_hash(std::uint64_t(base + global[D - 1][std::size_t(j)]), row + j, sizeof(T));
    row += ext[D - 1];
  });
  return sum;
}

}  // namespace distarray::detail
