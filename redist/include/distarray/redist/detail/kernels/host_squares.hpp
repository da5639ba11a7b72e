#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/host_squares.hpp is internal: include <distarray/redist.hpp>"
#endif
// A square of one or two cache lines' elements moved across, transposed in
// registers, on a host: the piece of host_copy_kernels.hpp's local
// transpose (issue 50, item 1).  Where the CPU has AVX, 32-byte registers
// hold 4 x 4 blocks of 8-byte elements and 8 x 8 blocks of 4-byte ones,
// and a group of output lines is written whole from registers; elsewhere
// on x86 SSE's 16-byte registers go through a tile on the stack.
//
// Host code only (x86's SSE2 and AVX intrinsics where present, plain
// stores elsewhere): never compiled for a device.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/kernels/host_streams.hpp>

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#endif

namespace distarray::detail {

/// Elements per 64-byte cache line (at least 1).
template <class T>
constexpr index_t line_elements = sizeof(T) >= 64 ? 1 : index_t(64 / sizeof(T));

/// Whether copy_square_transposed serves T: elements of 4, 8 or 16 bytes
/// (through SSE or AVX registers on x86, 16-byte ones one per load;
/// element by element elsewhere).
template <class T>
constexpr bool has_square_transpose = sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16;

/// The side of copy_square_transposed's squares: two lines' elements where
/// an element has 8 or 16 bytes, one line's for 4 (bench_pack_kernels,
/// transposing pack, alternating builds: f64 0.80-0.92 of a copy with two
/// lines against 0.68-0.79 with one, c128 1.04-1.19 against 0.66-0.70:
/// longer pieces of each stream on both sides; f32 0.58-0.67 with two
/// against 0.77-0.84 with one: 32 rows read at once are too many streams).
template <class T>
constexpr index_t square_side = sizeof(T) >= 8 ? 2 * line_elements<T> : line_elements<T>;

/// A square's two sides: element (q, k) is read at in + q in_step + k and
/// written at out + k out_step + q, for q, k in [0, square_side).
template <class T>
struct SquareSides {
  const T* in;
  index_t in_step;
  T* out;
  index_t out_step;
};

#if defined(__SSE2__) && defined(__x86_64__)
/// The side of the blocks an SSE register transposes: 4 of 4 bytes or 2 of 8.
template <class T>
constexpr index_t register_block = sizeof(T) == 4 || sizeof(T) == 8 ? index_t(16 / sizeof(T)) : 0;

/// The 4 x 4 block of 4-byte elements held a row per register, transposed.
inline void transpose_registers(__m128i (&v)[4]) {
  const __m128i t0 = _mm_unpacklo_epi32(v[0], v[1]), t1 = _mm_unpacklo_epi32(v[2], v[3]);
  const __m128i t2 = _mm_unpackhi_epi32(v[0], v[1]), t3 = _mm_unpackhi_epi32(v[2], v[3]);
  v[0] = _mm_unpacklo_epi64(t0, t1);
  v[1] = _mm_unpackhi_epi64(t0, t1);
  v[2] = _mm_unpacklo_epi64(t2, t3);
  v[3] = _mm_unpackhi_epi64(t2, t3);
}
/// The 2 x 2 block of 8-byte elements held a row per register, transposed.
inline void transpose_registers(__m128i (&v)[2]) {
  const __m128i t = _mm_unpacklo_epi64(v[0], v[1]);
  v[1] = _mm_unpackhi_epi64(v[0], v[1]);
  v[0] = t;
}

/// The square through SSE registers and a tile of S rows on the stack, so
/// that each line on either side is touched once: a sweep that read 16
/// lines of f32 rows 16 KiB apart a quarter at a time ran at 0.18 of a copy
/// (likely L1 conflicts: a set holds 8 lines 4 KiB apart), and one that
/// wrote W lines in interleaved 16-byte pieces ran at a third
/// (bench_pack_kernels --type f32|f64).  16-byte elements go straight
/// across, one load and one store each.  Lines written 16-byte aligned
/// where `stream`.
template <class T>
inline void copy_square_sse(bool stream, const SquareSides<T>& sq) {
  constexpr index_t S = square_side<T>, W = register_block<T>;
  const auto put = [stream](T* to, __m128i v) {
    if (stream)
      _mm_stream_si128(reinterpret_cast<__m128i*>(to), v);
    else
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to), v);
  };
  const auto load = [&](index_t q, index_t k) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(sq.in + q * sq.in_step + k));
  };
  if constexpr (W == 0) {
    for (index_t k = 0; k < S; ++k)
      for (index_t q = 0; q < S; ++q) put(sq.out + k * sq.out_step + q, load(q, k));
  } else {
    // tile[k][c]: output line k's elements c W, ..., c W + W - 1 (at most 2 KiB).
    __m128i tile[S][S / W];
    for (index_t q = 0; q < S; q += W)
      for (index_t c = 0; c < S / W; ++c) {
        __m128i v[W];
        for (index_t i = 0; i < W; ++i) v[i] = load(q + i, c * W);
        transpose_registers(v);
        for (index_t k = 0; k < W; ++k) tile[c * W + k][q / W] = v[k];
      }
    for (index_t k = 0; k < S; ++k)
      for (index_t c = 0; c < S / W; ++c) put(sq.out + k * sq.out_step + c * W, tile[k][c]);
  }
}
#endif

#if defined(DISTARRAY_STREAM_AVX)
/// A 32-byte register out, streamed (32-byte aligned) or stored.
__attribute__((target("avx"))) inline void put_avx(bool stream, void* to, __m256 v) {
  if (stream)
    _mm256_stream_ps(static_cast<float*>(to), v);
  else
    _mm256_storeu_ps(static_cast<float*>(to), v);
}

/// The square through AVX registers, with no tile in memory: G output lines
/// at a time (the columns of G x G blocks, 8 of 4 bytes, 4 of 8 or 2 of 16),
/// each block transposed in registers and each line written whole from
/// them.  Against the SSE square (a tile on the stack, 16-byte loads and
/// stores), three interleaved rounds at 1 thread: bench_one_rank's 4096^2
/// f64 transpose 1.37-1.61x a copy of the array -> 1.07-1.16x;
/// bench_pack_kernels' transposing pack 1.04-1.09 of a copy -> 1.38-1.40
/// (f64), 0.80-0.87 -> 0.90-1.02 (f32), c128 alike (docs/performance.md).
/// Lines written 32-byte aligned where `stream`.
template <class T>
__attribute__((target("avx"))) void copy_square_avx(bool stream, const SquareSides<T>& sq) {
  constexpr index_t S = square_side<T>, G = index_t(32 / sizeof(T)), P = S / G;  // P blocks along a line
  for (index_t k0 = 0; k0 < S; k0 += G) {
    __m256 line[G][P];  // output line k0 + k's elements p G, ..., p G + G - 1
    for (index_t p = 0; p < P; ++p) {
      __m256 r[G];
      for (index_t i = 0; i < G; ++i)  // (no lambda: it would not take the target attribute)
        r[i] = _mm256_loadu_ps(reinterpret_cast<const float*>(sq.in + (p * G + i) * sq.in_step + k0));
      if constexpr (sizeof(T) == 16) {  // 2 x 2 of 16 bytes: 128-bit halves
        line[0][p] = _mm256_permute2f128_ps(r[0], r[1], 0x20);
        line[1][p] = _mm256_permute2f128_ps(r[0], r[1], 0x31);
      } else if constexpr (sizeof(T) == 8) {  // 4 x 4 of 8 bytes: pairs, then 128-bit halves
        const __m256d a = _mm256_castps_pd(r[0]), b = _mm256_castps_pd(r[1]);
        const __m256d c = _mm256_castps_pd(r[2]), d = _mm256_castps_pd(r[3]);
        const __m256d t0 = _mm256_unpacklo_pd(a, b), t1 = _mm256_unpackhi_pd(a, b);
        const __m256d t2 = _mm256_unpacklo_pd(c, d), t3 = _mm256_unpackhi_pd(c, d);
        line[0][p] = _mm256_castpd_ps(_mm256_permute2f128_pd(t0, t2, 0x20));
        line[1][p] = _mm256_castpd_ps(_mm256_permute2f128_pd(t1, t3, 0x20));
        line[2][p] = _mm256_castpd_ps(_mm256_permute2f128_pd(t0, t2, 0x31));
        line[3][p] = _mm256_castpd_ps(_mm256_permute2f128_pd(t1, t3, 0x31));
      } else {  // 8 x 8 of 4 bytes: pairs, quads, then 128-bit halves
        __m256 t[8], u[8];
        for (int i = 0; i < 8; i += 2) {
          t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
          t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
        }
        for (int i = 0; i < 8; i += 4) {
          u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
          u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
          u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
          u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
        }
        for (int i = 0; i < 4; ++i) {
          line[i][p] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x20);
          line[i + 4][p] = _mm256_permute2f128_ps(u[i], u[i + 4], 0x31);
        }
      }
    }
    for (index_t k = 0; k < G; ++k)
      for (index_t p = 0; p < P; ++p) put_avx(stream, sq.out + (k0 + k) * sq.out_step + p * G, line[k][p]);
  }
}
#endif

/// out[k out_step + q] = in[q in_step + k] for k, q in [0, S), S =
/// square_side<T>: a square of one or two lines' elements moved across,
/// transposed, each line on either side touched once (each line written
/// 16-byte aligned where `stream`).
template <class T>
inline void copy_square_transposed([[maybe_unused]] bool stream, const SquareSides<T>& sq) {
#if defined(DISTARRAY_STREAM_AVX)
  if constexpr (has_square_transpose<T>) {
    const auto written = reinterpret_cast<std::uintptr_t>(sq.out) | std::uintptr_t(sq.out_step * sizeof(T));
    if (cpu_has_avx && (!stream || (written & 31) == 0)) return copy_square_avx<T>(stream, sq);
  }
#endif
#if defined(__SSE2__) && defined(__x86_64__)
  copy_square_sse<T>(stream, sq);
#else  // element by element (plain stores: stream_line's on these hosts too)
  constexpr index_t S = square_side<T>;
  for (index_t k = 0; k < S; ++k)
    for (index_t q = 0; q < S; ++q) sq.out[k * sq.out_step + q] = sq.in[q * sq.in_step + k];
#endif
}

}  // namespace distarray::detail
