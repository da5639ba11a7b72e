// The inner loop of the format 3 checksum (io/detail/checksum/checksum.hpp): the
// portable kernel and the choice among the kernels (keyed_row_kernels.hpp).
#include <distarray/io/detail/checksum/keyed_row_kernels.hpp>

#include <cstring>

namespace distarray::detail {

namespace {

/// Sums over the words `bytes` wide (1 to 8), `stride` bytes apart, from
/// `word`; inlined where both are constants, so that the loop vectorizes.
[[gnu::always_inline]] inline void add_words(const unsigned char* word, std::size_t stride, std::size_t bytes,
                                             index_t columns, std::uint64_t key0, std::uint64_t key1,
                                             const std::uint64_t* columns0, const std::uint64_t* columns1,
                                             KeyedSums& sums) {
  std::uint64_t sum0 = 0, sum1 = 0;  // locals, so that the loop vectorizes
  for (index_t j = 0; j < columns; ++j) {
    std::uint64_t w = 0;
    std::memcpy(&w, word + std::size_t(j) * stride, bytes);
    sum0 += keyed_mix(w + key0 + columns0[j]);
    sum1 += keyed_mix(w + key1 + columns1[j]);
  }
  sums.set0 += sum0;
  sums.set1 += sum1;
}

}  // namespace

void add_keyed_row_portable(const unsigned char* row, index_t columns, std::size_t element_bytes,
                            std::uint64_t row0, std::uint64_t row1, const std::uint64_t* columns0,
                            const std::uint64_t* columns1, KeyedSums& sums) {
  for (std::size_t t = 0; 8 * t < element_bytes; ++t) {
    const std::uint64_t key0 = row0 + word_key(t), key1 = row1 + word_key(t);
    const unsigned char* word = row + 8 * t;
    if (element_bytes == 8)
      add_words(word, 8, 8, columns, key0, key1, columns0, columns1, sums);
    else if (element_bytes == 16)
      add_words(word, 16, 8, columns, key0, key1, columns0, columns1, sums);
    else  // 4 (keyed_sums allows no other size)
      add_words(word, 4, 4, columns, key0, key1, columns0, columns1, sums);
  }
}

std::vector<NamedKeyedRowKernel> keyed_row_kernels() {
  std::vector<NamedKeyedRowKernel> kernels{{"portable", add_keyed_row_portable}};
#ifdef DISTARRAY_KEYED_ROW_AVX2
  if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", add_keyed_row_avx2});
#endif
  return kernels;
}

void add_keyed_row(const unsigned char* row, index_t columns, std::size_t element_bytes, std::uint64_t row0,
                   std::uint64_t row1, const std::uint64_t* columns0, const std::uint64_t* columns1,
                   KeyedSums& sums) {
  static const KeyedRowKernel chosen = keyed_row_kernels().back().add;
  chosen(row, columns, element_bytes, row0, row1, columns0, columns1, sums);
}

}  // namespace distarray::detail
