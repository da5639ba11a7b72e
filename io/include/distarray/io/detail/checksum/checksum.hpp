#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum/checksum.hpp is internal: include <distarray/io.hpp>"
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
// word and set, one pmuludq in vectors (AVX2 where the processor has it,
// keyed_row_kernels.hpp).  It takes about half the time of formats 1 and 2
// (checksum_v2.hpp), which hashed each element with two splitmix64 rounds.
// The two key sets make a change go unseen only if both sums miss it.

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/io/detail/checksum/splitmix64.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace distarray::detail {

/// The seed of formats 2 to 5: the element type name's bytes, the rank and
/// each extent chained through splitmix64 (added once to the element sums),
/// so that a dataset reshaped or retyped with the same bytes fails the
/// check; from format 5, for an array of a series step, then the word
/// "step" and the step number, so that a step renamed (its group and its
/// distarray_step together) fails it too.
inline std::uint64_t checksum_seed(const std::string& type, const std::vector<index_t>& shape,
                                   std::optional<std::uint64_t> step = std::nullopt) {
  std::uint64_t h = splitmix64(0x64697374617272ULL);  // "distarr"
  for (unsigned char c : type) h = splitmix64(h ^ c);
  h = splitmix64(h ^ shape.size());
  for (index_t e : shape) h = splitmix64(h ^ std::uint64_t(e));
  if (step) h = splitmix64(splitmix64(h ^ 0x73746570ULL) ^ *step);  // "step"
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

/// What word `t` of an element adds to the element's key (both kernels of
/// keyed_row_kernels.hpp): t times splitmix64's increment.
inline constexpr std::uint64_t word_key(std::size_t t) { return std::uint64_t(t) * 0x9E3779B97F4A7C15ULL; }

/// The two sums of format 3 over some elements (added over ranks).
struct KeyedSums {
  std::uint64_t set0 = 0, set1 = 0;
  KeyedSums& operator+=(const KeyedSums& o) {
    set0 += o.set0;
    set1 += o.set1;
    return *this;
  }
};

/// Adds format 3's sums over one row of `columns` elements of `element_bytes`
/// (4, 8 or 16) each: row keys `row0`, `row1` (the sums of the other dimensions' keys),
/// column keys `columns0`, `columns1` (io/src/checksum/keyed_row_sums.cpp).
void add_keyed_row(const unsigned char* row, index_t columns, std::size_t element_bytes, std::uint64_t row0,
                   std::uint64_t row1, const std::uint64_t* columns0, const std::uint64_t* columns1,
                   KeyedSums& sums);

/// Local indices [first, first + count) along dimension 0; count < 0: all.
struct LocalRows {
  index_t first = 0, count = -1;
  /// How many of `extent` local rows it holds.
  index_t of(index_t extent) const { return count < 0 ? extent - first : count; }
};

/// Format 3's sums over the row-major local block of grid coordinate `c`,
/// or over bands of it along dimension 0 (the keys of the other dimensions
/// computed once).  A layout of a row group of the array (rows
/// [row_offset, ...) of it) gets the keys of the array's rows.  Word t of an element (its bytes in 8-byte
/// little-endian words, the last zero-extended) is keyed by the element's key plus t * 0x9E3779B97F4A7C15.
template <class T, int D>
class KeyedSummer {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16, "the checkpoint element types");

 public:
  KeyedSummer(const Layout<D>& layout, const Coord<D>& c, index_t row_offset = 0)
      : layout_(layout), c_(c), ext_(layout.local_extents(c)), row_offset_(row_offset) {
    for (int set = 0; set < 2; ++set)
      for (int d = 1; d < D; ++d) keys_[set][d] = keys(set, d, 0, ext_[d]);
  }

  /// The sums over `rows` of the block whose memory starts at `block`.
  KeyedSums operator()(const T* block, LocalRows rows = {}) const {
    Index<D> ext = ext_;
    ext[0] = rows.of(ext[0]);
    if (element_count(ext) == 0) return {};
    std::array<std::vector<std::uint64_t>, 2> band;  // the keys of dimension 0, for these rows
    for (int set = 0; set < 2; ++set) band[std::size_t(set)] = keys(set, 0, rows.first, ext[0]);
    const auto key = [&](int set, int d) {
      return d == 0 ? band[std::size_t(set)].data() : keys_[set][d].data();
    };
    const index_t columns = ext[D - 1];
    KeyedSums sums;
    Index<D> row_tuples = ext;  // one tuple per row: the last dimension is the row
    row_tuples[D - 1] = 1;
    const auto* row =
        reinterpret_cast<const unsigned char*>(block + rows.first * (element_count(ext) / ext[0]));
    for_each_tuple(row_tuples, [&](const Index<D>& pos) {
      std::uint64_t row0 = 0, row1 = 0;
      for (int d = 0; d < D - 1; ++d) {
        row0 += key(0, d)[pos[d]];
        row1 += key(1, d)[pos[d]];
      }
      add_keyed_row(row, columns, sizeof(T), row0, row1, key(0, D - 1), key(1, D - 1), sums);
      row += std::size_t(columns) * sizeof(T);
    });
    return sums;
  }

 private:
  /// Keys of local indices [first, first + count) along dimension d.
  std::vector<std::uint64_t> keys(int set, int d, index_t first, index_t count) const {
    std::vector<std::uint64_t> k(static_cast<std::size_t>(count));
    const index_t offset = d == 0 ? row_offset_ : 0;
    for (index_t l = 0; l < count; ++l)
      k[std::size_t(l)] = dimension_key(set, d, offset + layout_.dist(d).global_index(c_[d], first + l));
    return k;
  }
  Layout<D> layout_;
  Coord<D> c_;
  Index<D> ext_;
  index_t row_offset_;
  /// [set][dimension][local index]; dimension 0's are computed per band.
  std::array<std::array<std::vector<std::uint64_t>, D>, 2> keys_;
};

template <class T, int D>
KeyedSums keyed_sums(const Layout<D>& layout, const Coord<D>& c, const T* data) {
  return KeyedSummer<T, D>(layout, c)(data);
}

/// The checksum from the sums over all ranks.
inline std::uint64_t keyed_checksum(const KeyedSums& all, std::uint64_t seed) {
  return seed + all.set0 + splitmix64(all.set1);
}

}  // namespace distarray::detail
