#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum.hpp is internal: include <distarray/io.hpp>"
#endif
// The order-independent checkpoint checksum of format 3
// (docs/checkpoint-format.md): two sums mod 2^64 over the 8-byte words of
// the elements, each word keyed by its element's global position, so any
// layout and rank count computes the same value from what it holds.
//
// A word w with key k adds mix(w + k) = x + lo32(x) * hi32(x), x = w + k:
// NH, the hash of UMAC (Black et al., CRYPTO 1999, section 3), with x added
// so that a zero half absorbs no change of the other.  A key is a sum of one
// random key per dimension, so a row's keys are its row key plus a table of
// column keys: the inner loop is additions and one 32x32->64 multiply per
// word and set, which compilers vectorize (pmuludq) on every x86-64.  It
// takes about half the time of formats 1 and 2 (checksum_v2.hpp), which
// hashed each element with two splitmix64 rounds.  The two key sets
// make a change go unseen only if both sums miss it.

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/io/detail/splitmix64.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace distarray::detail {

/// The seed of formats 2 and 3: the element type name's bytes, the rank and
/// each extent chained through splitmix64 (added once to the element sums),
/// so that a dataset reshaped or retyped with the same bytes fails the check.
inline std::uint64_t checksum_seed(const std::string& type, const std::vector<index_t>& shape) {
  std::uint64_t h = splitmix64(0x64697374617272ULL);  // "distarr"
  for (unsigned char c : type) h = splitmix64(h ^ c);
  h = splitmix64(h ^ shape.size());
  for (index_t e : shape) h = splitmix64(h ^ std::uint64_t(e));
  return h;
}

/// The key of global index `x` along dimension `d` in key set `set` (0 or 1).
inline std::uint64_t dimension_key(int set, int d, index_t x) {
  return splitmix64(splitmix64(std::uint64_t(2 * d + set)) + std::uint64_t(x));
}

/// mix(x) = x + lo32(x) * hi32(x), the product exact in 64 bits.
inline std::uint64_t keyed_mix(std::uint64_t x) {
  return x + std::uint64_t(std::uint32_t(x)) * std::uint64_t(std::uint32_t(x >> 32));
}

/// The two sums of format 3 over some elements (added over ranks).
struct KeyedSums {
  std::uint64_t set0 = 0, set1 = 0;
};

/// Format 3's sums over the row-major local block `data` of grid coordinate
/// `c`.  Word t of an element (its bytes in 8-byte little-endian words, the
/// last zero-extended) is keyed by the element's key plus t * 0x9E3779B97F4A7C15.
template <class T, int D>
KeyedSums keyed_sums(const Layout<D>& layout, const Coord<D>& c, const T* data) {
  const Index<D> ext = layout.local_extents(c);
  if (element_count(ext) == 0) return {};
  std::array<std::array<std::vector<std::uint64_t>, D>, 2> keys;  // [set][dimension][local index]
  for (int set = 0; set < 2; ++set)
    for (int d = 0; d < D; ++d)
      for (index_t l = 0; l < ext[d]; ++l)
        keys[set][d].push_back(dimension_key(set, d, layout.dist(d).global_index(c[d], l)));
  constexpr std::size_t words = (sizeof(T) + 7) / 8;
  const index_t columns = ext[D - 1];
  const std::uint64_t *columns0 = keys[0][D - 1].data(), *columns1 = keys[1][D - 1].data();
  KeyedSums sums;
  Index<D> rows = ext;  // one tuple per row: the last dimension is the row
  rows[D - 1] = 1;
  const auto* row = reinterpret_cast<const unsigned char*>(data);
  for_each_tuple(rows, [&](const Index<D>& pos) {
    std::uint64_t row0 = 0, row1 = 0;
    for (int d = 0; d < D - 1; ++d) {
      row0 += keys[0][d][std::size_t(pos[d])];
      row1 += keys[1][d][std::size_t(pos[d])];
    }
    for (std::size_t t = 0; t < words; ++t) {
      const std::uint64_t word_key = t * 0x9E3779B97F4A7C15ULL;
      const std::size_t bytes = std::min<std::size_t>(8, sizeof(T) - 8 * t);
      std::uint64_t sum0 = 0, sum1 = 0;  // locals, so that the loop vectorizes
      for (index_t j = 0; j < columns; ++j) {
        std::uint64_t w = 0;
        std::memcpy(&w, row + std::size_t(j) * sizeof(T) + 8 * t, bytes);
        sum0 += keyed_mix(w + row0 + word_key + columns0[j]);
        sum1 += keyed_mix(w + row1 + word_key + columns1[j]);
      }
      sums.set0 += sum0;
      sums.set1 += sum1;
    }
    row += std::size_t(columns) * sizeof(T);
  });
  return sums;
}

/// The checksum from the sums over all ranks.
inline std::uint64_t keyed_checksum(const KeyedSums& all, std::uint64_t seed) {
  return seed + all.set0 + splitmix64(all.set1);
}

}  // namespace distarray::detail
