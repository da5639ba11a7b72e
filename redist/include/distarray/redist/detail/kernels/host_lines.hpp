#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/host_lines.hpp is internal: include <distarray/redist.hpp>"
#endif
// A cache line's worth of elements at a time, on a host: the pieces of
// host_copy_kernels.hpp's kernels.  copy_line writes a line, streamed past
// the caches (host_streams.hpp) or stored, short runs inline (issue 50,
// item 1); host_squares.hpp moves squares of lines across, transposed.
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

}  // namespace distarray::detail
