#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/host_lines.hpp is internal: include <distarray/redist.hpp>"
#endif
// A cache line's worth of elements at a time, on a host: the pieces of
// host_copy_kernels.hpp's kernels.  copy_line writes a line, streamed past
// the caches (host_streams.hpp) or stored; copy_square_transposed moves a
// square of one or two lines' elements across, transposed in SSE registers
// (issue 50, item 1).
//
// Host code only (x86's SSE2 intrinsics where present, plain stores
// elsewhere): never compiled for a device.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/kernels/host_streams.hpp>

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#endif

namespace distarray::detail {

/// Elements per 64-byte cache line (at least 1).
template <class T>
constexpr index_t line_elements = sizeof(T) >= 64 ? 1 : index_t(64 / sizeof(T));

#if defined(__SSE2__) && defined(__x86_64__)
/// `bytes` (16 K to 32 K) from `in` to `out` as K 16-byte pieces from each
/// end, which may overlap: every load before any store, so that `in` and
/// `out` may overlap as memmove's may.
template <int K>
inline void move_from_both_ends(char* out, const char* in, std::size_t bytes) {
  __m128i head[K], tail[K];
  for (int i = 0; i < K; ++i) {
    head[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * i));
    tail[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + bytes - 16 * (K - i)));
  }
  for (int i = 0; i < K; ++i) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), head[i]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + bytes - 16 * (K - i)), tail[i]);
  }
}
#endif

/// memmove of a short run (16 to 128 bytes) inline, as glibc's memmove
/// copies one (from both ends, in registers): the call cost more than the
/// bytes (bench_pack_kernels --type f32, 16-element runs: the unpack went
/// from 0.45-0.58 of a copy to 0.57-0.67 at 1 thread, docs/performance.md).
inline void move_short(char* out, const char* in, std::size_t bytes) {
#if defined(__SSE2__) && defined(__x86_64__)
  if (bytes <= 32)
    move_from_both_ends<1>(out, in, bytes);
  else if (bytes <= 64)
    move_from_both_ends<2>(out, in, bytes);
  else
    move_from_both_ends<4>(out, in, bytes);
#else
  std::memmove(out, in, bytes);
#endif
}

/// out[q] = from(q) for q in [0, n): streamed past the caches, or stored
/// (by memmove where the source is contiguous: a plan executed from an
/// array into itself copies runs onto themselves, and memcpy's arguments
/// may not overlap).
template <class T, class From>
inline void copy_line(T* out, index_t n, bool stream, const From& from) {
  if (stream) return stream_line(out, n, from);
  if constexpr (is_spaced<From>) {
    if (from.s == 1) {
      const std::size_t bytes = std::size_t(n) * sizeof(T);
      if (bytes >= 16 && bytes <= 128)
        move_short(reinterpret_cast<char*>(out), reinterpret_cast<const char*>(from.p), bytes);
      else
        std::memmove(static_cast<void*>(out), from.p, bytes);
      return;
    }
  }
  for (index_t q = 0; q < n; ++q) out[q] = from(q);
}

/// The side of the square blocks of elements a transpose moves through SSE
/// registers on x86: 4 of 4 bytes or 2 of 8 (16 bytes a row); 0 where none.
template <class T>
constexpr index_t register_block =
#if defined(__SSE2__) && defined(__x86_64__)
    sizeof(T) == 4 || sizeof(T) == 8 ? index_t(16 / sizeof(T)) : 0;
#else
    0;
#endif

/// Whether copy_square_transposed serves T: elements of 4, 8 or 16 bytes
/// (through SSE registers on x86, 16-byte ones one per load; element by
/// element elsewhere).
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

#if defined(__SSE2__) && defined(__x86_64__)
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
#endif

/// out(k)[q] = in(q)[k] for k, q in [0, S), S = square_side<T>: a square
/// of one or two lines' elements transposed, read a line at a time from
/// each in(q) and written a line at a time to each out(k) (each 16-byte
/// aligned where `stream`).  It goes through a tile of S rows, W x W blocks
/// at a time in registers, so that each line on either side is touched
/// once: a sweep that read 16 lines of f32 rows 16 KiB apart a quarter at a
/// time ran at 0.18 of a copy (likely L1 conflicts: a set holds 8 lines 4
/// KiB apart, so the 16 lines may evict each other before their next
/// quarter; not measured with counters), and one that wrote W lines in
/// interleaved 16-byte pieces ran at a third (bench_pack_kernels --type
/// f32|f64).  Elements of 16 bytes go straight across, one load and one
/// store each; without SSE, element by element.
template <class T, class In, class Out>
inline void copy_square_transposed([[maybe_unused]] bool stream, const In& in, const Out& out) {
  constexpr index_t S = square_side<T>;
#if defined(__SSE2__) && defined(__x86_64__)
  constexpr index_t W = register_block<T>;
  const auto put = [stream](T* to, __m128i v) {
    if (stream)
      _mm_stream_si128(reinterpret_cast<__m128i*>(to), v);
    else
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to), v);
  };
  if constexpr (W == 0) {
    for (index_t k = 0; k < S; ++k) {
      T* const to = out(k);  // once: a 16-byte store may alias whatever out() reads
      for (index_t q = 0; q < S; ++q)
        put(to + q, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in(q) + k)));
    }
  } else {
    // tile[k][c]: out(k)'s elements c W, ..., c W + W - 1 (on the host stack, at most 2 KiB).
    __m128i tile[S][S / W];
    for (index_t q = 0; q < S; q += W)
      for (index_t c = 0; c < S / W; ++c) {
        __m128i v[W];
        for (index_t i = 0; i < W; ++i)
          v[i] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in(q + i) + c * W));
        transpose_registers(v);
        for (index_t k = 0; k < W; ++k) tile[c * W + k][q / W] = v[k];  // out(c W + k)'s elements q, ...
      }
    for (index_t k = 0; k < S; ++k) {
      T* const to = out(k);
      for (index_t c = 0; c < S / W; ++c) put(to + c * W, tile[k][c]);
    }
  }
#else  // element by element (plain stores: stream_line's on these hosts too)
  for (index_t k = 0; k < S; ++k) {
    T* const to = out(k);
    for (index_t q = 0; q < S; ++q) to[q] = in(q)[k];
  }
#endif
}

}  // namespace distarray::detail
