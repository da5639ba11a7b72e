#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/host_streams.hpp is internal: include <distarray/redist.hpp>"
#endif
// Non-temporal stores on a host, for host_lines.hpp: stream_line writes a
// run of elements past the caches (one read and one write per element, as
// memcpy does for large copies), loading 16 bytes at a time where the
// source is contiguous and storing 32 at a time where the CPU has AVX.
//
// Host code only (x86's SSE2 and AVX intrinsics where present, plain
// stores elsewhere): never compiled for a device.

#include <distarray/core/types.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <immintrin.h>
#endif

namespace distarray::detail {

/// Elements p[0], p[s], p[2 s], ...: a source whose elements a streamed
/// line loads 16 bytes at a time where they are contiguous (s = 1).
template <class T>
struct Spaced {
  const T* p;
  index_t s;
  const T& operator()(index_t q) const { return p[q * s]; }
};
template <class From>
constexpr bool is_spaced = false;
template <class T>
constexpr bool is_spaced<Spaced<T>> = true;

#if defined(__SSE2__) && defined(__x86_64__)
/// 16 bytes of elements q, q+1, ... of from(): one, two or four elements.
template <class T, class From>
inline __m128i sixteen_bytes(const From& from, index_t q) {
  const auto bits = [&](index_t i) { return reinterpret_cast<const char*>(&from(q + i)); };
  if constexpr (is_spaced<From>) {
    if (from.s == 1) return _mm_loadu_si128(reinterpret_cast<const __m128i*>(bits(0)));
  }
  if constexpr (sizeof(T) == 16) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(bits(0)));
  } else if constexpr (sizeof(T) == 8) {
    return _mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bits(0))),
                              _mm_loadl_epi64(reinterpret_cast<const __m128i*>(bits(1))));
  } else {  // each word into a register (movd) and interleaved: never through memory
    const auto word = [&](index_t i) {
      int w;
      std::memcpy(&w, bits(i), 4);
      return _mm_cvtsi32_si128(w);
    };
    return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(0), word(1)), _mm_unpacklo_epi32(word(2), word(3)));
  }
}
#endif

#if defined(__SSE2__) && defined(__x86_64__)
/// One element of 4 or 8 bytes out with a non-temporal store (MOVNTI).
template <class T>
inline void stream_element(T* out, const T& value) {
  if constexpr (sizeof(T) == 4) {
    int w;
    std::memcpy(&w, &value, 4);
    _mm_stream_si32(reinterpret_cast<int*>(out), w);
  } else {
    long long w;
    std::memcpy(&w, &value, 8);
    _mm_stream_si64(reinterpret_cast<long long*>(out), w);
  }
}
#endif

#if defined(__SSE2__) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define DISTARRAY_STREAM_AVX 1
/// Whether this CPU has AVX's 32-byte stores (checked once, at start-up:
/// the library is built for any x86-64, so the wider stores are chosen when
/// it runs; __builtin_cpu_init first, as a static initializer may run
/// before the compiler's own).
inline const bool cpu_has_avx = (__builtin_cpu_init(), __builtin_cpu_supports("avx"));
/// 64 bytes from `in` to `out` (on a 64-byte boundary): a whole cache line
/// in two non-temporal 32-byte stores.  (A function of its own: a lambda
/// does not take its function's target attribute.)
__attribute__((target("avx"))) inline void stream_cache_line_avx(char* out, const char* in) {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32));
  _mm256_stream_si256(reinterpret_cast<__m256i*>(out), a);
  _mm256_stream_si256(reinterpret_cast<__m256i*>(out + 32), b);
}
/// `bytes` (a multiple of 16) from `in` to `out` (16-byte aligned) with
/// non-temporal stores of 32 bytes from the first 64-byte boundary on.
/// A Xeon with AVX-512 streamed 128 MiB at 6.6 / 3.8 / 4.7 GB/s with
/// 16-byte stores and 7.8 / 4.6 / 6.9 with 32-byte ones (three runs).
/// Four pages at a time, a line of each in turn (glibc's large memmove does
/// the same): 128 MiB in 32 KiB calls, the source 8 bytes off a line, ran
/// at 9.1-9.4 GB/s so against 5.6-6.0 a line after the next, and 16 MiB at
/// 11.7 against 9.3; whole lines only, as a 32-byte-aligned start that
/// split them ran at 3.8-4.5.
__attribute__((target("avx"))) inline void stream_contiguous_avx(char* out, const char* in,
                                                                 std::size_t bytes) {
  const auto sixteen = [&](std::size_t q) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + q),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + q)));
  };
  const auto line = [&](std::size_t q) { stream_cache_line_avx(out + q, in + q); };
  constexpr std::size_t page = 4096;
  std::size_t q = 0;
  for (; q < bytes && (reinterpret_cast<std::uintptr_t>(out + q) & 63) != 0; q += 16) sixteen(q);
  for (; q + 4 * page <= bytes; q += 4 * page)
    for (std::size_t l = 0; l < page; l += 64)
      for (std::size_t p = 0; p < 4; ++p) line(q + p * page + l);
  for (; q + 64 <= bytes; q += 64) line(q);
  for (; q < bytes; q += 16) sixteen(q);
}
#endif

/// out[q] = from(q) for q in [0, n), with 16-byte non-temporal stores from
/// the first 16-byte boundary of `out` on (x86; 32-byte ones from a
/// contiguous source where the CPU has AVX; plain stores elsewhere).
/// The elements before and after those go out non-temporally too: a plain
/// store into a line that is being written non-temporally flushes it half
/// done (a transposing pack of f32 rows 8 bytes off a 16-byte boundary ran
/// at 0.04 of a copy so).
template <class T, class From>
inline void stream_line(T* out, index_t n, const From& from) {
  index_t q = 0;
#if defined(__SSE2__) && defined(__x86_64__)
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) {
    constexpr index_t per = index_t(16 / sizeof(T));
    const auto single = [&](index_t i) {
      if constexpr (sizeof(T) == 16)
        out[i] = from(i);  // never off a 16-byte boundary in a 16-byte-aligned block
      else
        stream_element(out + i, from(i));
    };
    for (; q < n && (reinterpret_cast<std::uintptr_t>(out + q) & 15) != 0; ++q) single(q);
#if defined(DISTARRAY_STREAM_AVX)
    if constexpr (is_spaced<From>) {
      if (from.s == 1 && (n - q) * index_t(sizeof(T)) >= 512 && cpu_has_avx) {  // a call pays from here
        const index_t body = (n - q) / per * per;
        stream_contiguous_avx(reinterpret_cast<char*>(out + q), reinterpret_cast<const char*>(from.p + q),
                              std::size_t(body) * sizeof(T));
        q += body;
      }
    }
#endif
    for (; q + per <= n; q += per)
      _mm_stream_si128(reinterpret_cast<__m128i*>(out + q), sixteen_bytes<T>(from, q));
    for (; q < n; ++q) single(q);
  }
#endif
  for (; q < n; ++q) out[q] = from(q);
}

/// Makes this thread's streamed stores visible before the launch ends.
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace distarray::detail
