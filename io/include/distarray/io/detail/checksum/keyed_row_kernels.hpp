#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum/keyed_row_kernels.hpp is internal: include <distarray/io.hpp>"
#endif
// The implementations of format 3's row sums (add_keyed_row, checksum.hpp):
// a portable loop, and on x86-64 one written with AVX2 intrinsics, picked
// once by what the processor has.  The intrinsics are there because
// compilers vectorize the portable loop's 32x32->64 product as a full
// 64-bit one (three multiplies and the shifts between them, where the two
// halves need one pmuludq): the AVX2 kernel runs at 1.65 times its speed
// (18 against 11 GB/s on one core of an AMD EPYC, data in cache).
// Tests hold every kernel the processor runs to the portable one.

#include <distarray/io/detail/checksum/checksum.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DISTARRAY_KEYED_ROW_AVX2 1
#endif

namespace distarray::detail {

/// An implementation of add_keyed_row (same arguments).
using KeyedRowKernel = void (*)(const unsigned char* row, index_t columns, std::size_t element_bytes,
                                std::uint64_t row0, std::uint64_t row1, const std::uint64_t* columns0,
                                const std::uint64_t* columns1, KeyedSums& sums);

struct NamedKeyedRowKernel {
  const char* name;
  KeyedRowKernel add;
};

/// The kernels this processor can run, the portable one first; add_keyed_row uses the last.
std::vector<NamedKeyedRowKernel> keyed_row_kernels();

void add_keyed_row_portable(const unsigned char* row, index_t columns, std::size_t element_bytes,
                            std::uint64_t row0, std::uint64_t row1, const std::uint64_t* columns0,
                            const std::uint64_t* columns1, KeyedSums& sums);

#ifdef DISTARRAY_KEYED_ROW_AVX2
/// Four columns at a time in 256-bit vectors; the leftover ones by the portable loop.
void add_keyed_row_avx2(const unsigned char* row, index_t columns, std::size_t element_bytes,
                        std::uint64_t row0, std::uint64_t row1, const std::uint64_t* columns0,
                        const std::uint64_t* columns1, KeyedSums& sums);
#endif

}  // namespace distarray::detail
