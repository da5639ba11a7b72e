// Format 3's row sums in AVX2 (keyed_row_kernels.hpp): four columns per
// 256-bit vector, mix(x) = x + lo32(x) * hi32(x) as one vpmuludq of x and
// x >> 32 (checksum.hpp).  Compiled for AVX2 function by function (target
// attribute), so that the library still runs on processors without it.
#include <distarray/io/detail/checksum/keyed_row_kernels.hpp>

#ifdef DISTARRAY_KEYED_ROW_AVX2

#include <immintrin.h>

#define DISTARRAY_AVX2 __attribute__((target("avx2")))

namespace distarray::detail {

namespace {

DISTARRAY_AVX2 inline __m256i load(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

/// Word `t` of elements j..j+3 of `Bytes` each (4: zero-extended); for
/// 16-byte elements in the order j, j+2, j+1, j+3 (see column_keys).
template <std::size_t Bytes>
DISTARRAY_AVX2 inline __m256i words(const unsigned char* row, index_t j, std::size_t t) {
  if constexpr (Bytes == 4)
    return _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 4 * j)));
  else if constexpr (Bytes == 8)
    return load(row + 8 * j);
  else {  // unpack within 128-bit lanes: [j, j+1] and [j+2, j+3] give j, j+2 | j+1, j+3
    const __m256i low = load(row + 16 * j), high = load(row + 16 * j + 32);
    return t == 0 ? _mm256_unpacklo_epi64(low, high) : _mm256_unpackhi_epi64(low, high);
  }
}

/// The column keys of j..j+3 in the order of words<Bytes>.
template <std::size_t Bytes>
DISTARRAY_AVX2 inline __m256i column_keys(const std::uint64_t* columns, index_t j) {
  const __m256i keys = load(columns + j);
  if constexpr (Bytes == 16) return _mm256_permute4x64_epi64(keys, _MM_SHUFFLE(3, 1, 2, 0));
  return keys;
}

DISTARRAY_AVX2 inline __m256i keyed_mix(__m256i x) {
  return _mm256_add_epi64(x, _mm256_mul_epu32(x, _mm256_srli_epi64(x, 32)));
}

DISTARRAY_AVX2 inline std::uint64_t lanes_sum(__m256i v) {
  const __m128i pair = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return std::uint64_t(_mm_cvtsi128_si64(pair)) + std::uint64_t(_mm_extract_epi64(pair, 1));
}

/// The sums of add_keyed_row over columns [0, vectors), a multiple of four.
template <std::size_t Bytes>
DISTARRAY_AVX2 void add_vectors(const unsigned char* row, index_t vectors, std::uint64_t row0,
                                std::uint64_t row1, const std::uint64_t* columns0,
                                const std::uint64_t* columns1, KeyedSums& sums) {
  for (std::size_t t = 0; 8 * t < Bytes; ++t) {
    const __m256i key0 = _mm256_set1_epi64x(std::int64_t(row0 + word_key(t)));
    const __m256i key1 = _mm256_set1_epi64x(std::int64_t(row1 + word_key(t)));
    __m256i sum0 = _mm256_setzero_si256(), sum1 = _mm256_setzero_si256();
    for (index_t j = 0; j < vectors; j += 4) {
      const __m256i w = words<Bytes>(row, j, t);
      sum0 = _mm256_add_epi64(
          sum0, keyed_mix(_mm256_add_epi64(_mm256_add_epi64(w, key0), column_keys<Bytes>(columns0, j))));
      sum1 = _mm256_add_epi64(
          sum1, keyed_mix(_mm256_add_epi64(_mm256_add_epi64(w, key1), column_keys<Bytes>(columns1, j))));
    }
    sums.set0 += lanes_sum(sum0);
    sums.set1 += lanes_sum(sum1);
  }
}

}  // namespace

DISTARRAY_AVX2 void add_keyed_row_avx2(const unsigned char* row, index_t columns, std::size_t element_bytes,
                                       std::uint64_t row0, std::uint64_t row1, const std::uint64_t* columns0,
                                       const std::uint64_t* columns1, KeyedSums& sums) {
  const index_t vectors = columns / 4 * 4;
  if (element_bytes == 8)
    add_vectors<8>(row, vectors, row0, row1, columns0, columns1, sums);
  else if (element_bytes == 16)
    add_vectors<16>(row, vectors, row0, row1, columns0, columns1, sums);
  else
    add_vectors<4>(row, vectors, row0, row1, columns0, columns1, sums);
  add_keyed_row_portable(row + std::size_t(vectors) * element_bytes, columns - vectors, element_bytes, row0,
                         row1, columns0 + vectors, columns1 + vectors, sums);
}

}  // namespace distarray::detail

#endif  // DISTARRAY_KEYED_ROW_AVX2
