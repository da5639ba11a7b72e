#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum/checksum_v2.hpp is internal: include <distarray/io.hpp>"
#endif
// The checksum of formats 1 and 2 (docs/checkpoint-format.md), kept to verify
// files saved before format 3: a sum mod 2^64 over elements of a hash of
// (row-major global index, bytes), two splitmix64 rounds per 8-byte word.
// Format 3 (checksum.hpp) replaced it: it cost a restore more than the
// read itself.

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/io/detail/checksum/splitmix64.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace distarray::detail {

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

/// Formats 1 and 2's element sum of the row-major local block `data` of
/// grid coordinate `c` (to be summed over ranks).
template <class T, int D>
std::uint64_t element_hash_sum(const Layout<D>& layout, const Coord<D>& c, const T* data) {
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
