// The host kernels' pieces (host_lines.hpp, host_streams.hpp,
// host_squares.hpp) alone, against the C library and plain loops: the
// short runs' inline memmove at every length and overlap, the streamed copy
// of contiguous sources, and the transposed squares for every element size,
// both ways of moving them (AVX registers where the CPU has AVX, SSE),
// streamed and stored, on steps that keep the lines written 32-byte
// aligned and steps that do not.

#include <distarray/redist/detail/kernels/host_copy_kernels.hpp>

#include <gtest/gtest.h>
#include <Kokkos_Complex.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace distarray::detail {
namespace {

// The short runs' inline memmove (host_lines.hpp) against memmove, every
// length it takes and every overlap of source and destination within a
// few bytes either way, the exact one (a plan from an array into itself)
// included.
TEST(HostLines, MoveShortIsMemmoveAtEveryLengthAndOverlap) {
  std::vector<char> initial(512);
  for (std::size_t i = 0; i < initial.size(); ++i) initial[i] = char(i * 7 + 3);
  for (std::size_t bytes = 16; bytes <= 128; ++bytes)
    for (std::size_t from = 150; from <= 170; ++from)
      for (std::size_t to :
           {std::size_t(0), from - 20, from - 1, from, from + 1, from + 20, std::size_t(300)}) {
        std::vector<char> expected = initial, got = initial;
        std::memmove(expected.data() + to, expected.data() + from, bytes);
        move_short(got.data() + to, got.data() + from, bytes);
        ASSERT_EQ(got, expected) << bytes << " bytes from " << from << " to " << to;
      }
}

#if defined(DISTARRAY_STREAM_AVX)
// The streamed copy of a contiguous source (host_streams.hpp), whole pages
// four at a time, against memcpy: lengths below a line, below four pages
// and past them with ragged ends, every 16-byte start of the destination
// within a line, sources off it.
TEST(HostLines, StreamContiguousIsMemcpy) {
  if (!cpu_has_avx) GTEST_SKIP() << "no AVX on this CPU";
  std::vector<char> in(80000), out(80000);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = char(i * 13 + 5);
  for (std::size_t bytes : {16, 48, 64, 1008, 16384, 16384 + 4080, 3 * 16384 + 64 + 16, 70000 - 70000 % 16})
    for (std::size_t to = 0; to < 64; to += 16)
      for (std::size_t from : {0, 8, 24}) {
        char* const o = out.data() + (64 - reinterpret_cast<std::uintptr_t>(out.data()) % 64) + to;
        std::fill(out.begin(), out.end(), char(0));
        stream_contiguous_avx(o, in.data() + from, bytes);
        stream_fence();
        ASSERT_EQ(std::memcmp(o, in.data() + from, bytes), 0)
            << bytes << " bytes to +" << to << " from +" << from;
        ASSERT_EQ(o[bytes], 0) << "written past the end";
      }
}
#endif

/// A square of T moved by `move` (in steps of `in_step` elements, out in
/// steps of `out_step` from `out_shift` elements past a 64-byte boundary)
/// against element-by-element assignment; nothing else written.
template <class T, class Move>
void check_square(index_t in_step, index_t out_step, index_t out_shift, const Move& move) {
  constexpr index_t S = square_side<T>;
  std::vector<T> in(std::size_t(S * in_step));
  for (std::size_t i = 0; i < in.size(); ++i) {  // every element's bits distinct: its number + 1
    const std::uint32_t v = std::uint32_t(i + 1);
    std::memset(static_cast<void*>(&in[i]), 0, sizeof(T));
    std::memcpy(static_cast<void*>(&in[i]), &v, sizeof(v));
  }
  std::vector<T> storage(std::size_t(S * out_step + out_shift) + 64), expected;
  T* const out =
      storage.data() + (64 - reinterpret_cast<std::uintptr_t>(storage.data()) % 64) / sizeof(T) + out_shift;
  std::memset(static_cast<void*>(storage.data()), 0, storage.size() * sizeof(T));
  expected = storage;
  for (index_t k = 0; k < S; ++k)
    for (index_t q = 0; q < S; ++q)
      expected[std::size_t(out - storage.data() + k * out_step + q)] = in[std::size_t(q * in_step + k)];
  move(SquareSides<T>{in.data(), in_step, out, out_step});
  stream_fence();
  ASSERT_EQ(std::memcmp(storage.data(), expected.data(), storage.size() * sizeof(T)), 0)
      << sizeof(T) << "-byte elements, in step " << in_step << ", out step " << out_step << " from +"
      << out_shift;
}

template <class T>
void check_squares() {
  constexpr index_t S = square_side<T>, per16 = index_t(16 / sizeof(T) ? 16 / sizeof(T) : 1);
  for (index_t in_step : {S, S + 3, 3 * S + 1})
    for (index_t out_step : {S, S + per16, 4 * S})
      for (index_t shift : {index_t(0), per16}) {  // lines 32-byte aligned or only 16
        for (bool stream : {false, true})
          check_square<T>(in_step, out_step, shift,
                          [&](const SquareSides<T>& sq) { copy_square_transposed<T>(stream, sq); });
#if defined(__SSE2__) && defined(__x86_64__)
        check_square<T>(in_step, out_step, shift,
                        [&](const SquareSides<T>& sq) { copy_square_sse<T>(true, sq); });
#endif
#if defined(DISTARRAY_STREAM_AVX)
        if (cpu_has_avx && shift == 0 && out_step * sizeof(T) % 32 == 0)
          check_square<T>(in_step, out_step, shift,
                          [&](const SquareSides<T>& sq) { copy_square_avx<T>(true, sq); });
        if (cpu_has_avx)
          check_square<T>(in_step, out_step, shift,
                          [&](const SquareSides<T>& sq) { copy_square_avx<T>(false, sq); });
#endif
      }
}

TEST(HostSquares, FourByteElements) { check_squares<float>(); }
TEST(HostSquares, EightByteElements) {
  check_squares<double>();
  check_squares<std::int64_t>();
}
TEST(HostSquares, SixteenByteElements) { check_squares<Kokkos::complex<double>>(); }

}  // namespace
}  // namespace distarray::detail
