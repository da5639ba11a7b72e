#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/host_copy_kernels.hpp is internal: include <distarray/redist.hpp>"
#endif
// The packers' copy kernels on host backends (Serial, OpenMP, Threads):
// copy_tiles_host and copy_runs_host, host specialisations of
// copy_kernels.hpp's team kernels (issue 50, item 1).  Each thread takes
// whole work items (run chunks, tile tasks).  When a launch writes more than
// a cache holds (`stream`) and only moves bits, its output goes out with
// non-temporal stores, which skip reading each destination line into the
// cache before writing it over: one read and one write per element, as
// memcpy does for large copies.  A transpose sweeps its tile task in strips
// one or two cache lines wide (square_side) across the side written and the
// task's length along the side read: each thread reads a strip's worth of
// sequential streams (which the hardware prefetches) and writes whole
// lines; where the rows are neighbours and the lines written start on
// 16-byte boundaries, a square at a time, transposed in registers
// (host_squares.hpp).  Measured on bench_one_rank and bench_pack_kernels
// (docs/performance.md): without streamed stores the strided side runs at
// a quarter of a copy here.
//
// Host code only: never compiled for a device.

#include <distarray/redist/detail/kernels/copy_kernels.hpp>
#include <distarray/redist/detail/kernels/host_lines.hpp>
#include <distarray/redist/detail/kernels/host_squares.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace distarray::detail {

/// A launch writing at least this many bytes streams its output past the
/// caches: more than a core's share of a last-level cache, where a write
/// that went through the cache would be evicted before it is read again.
constexpr std::size_t stream_bytes = std::size_t(4) << 20;
/// A pack streams from a lower size where another rank reads what it writes
/// next (messages, through MPI or in a peer's segment), or where it transposes.
/// Messages: this core never reads them again, and a line another core reads
/// next crosses between the cores either way (2- and 4-rank 1024^2 transposes
/// on the shared engine: 0.55 against 0.66 ms and 0.76 against 1.23 ms,
/// docs/bench/pack_stream_bytes.txt).  A transpose: its lines go out a buffer
/// row apart, and once they outgrow a core's L2 plain stores ran at half the
/// streamed speed (plain faster at 768^2, 1.1 MiB launches; streamed from
/// 896^2, 1.5 MiB).  The message to oneself, untransposed, keeps stream_bytes:
/// this rank reads it next (a 1-rank 640^2 redistribution: 0.085 ms plain,
/// 0.167 streamed).  Figures and commands:
/// docs/performance.md, "Packs for other ranks stream from 1.5 MiB".
constexpr std::size_t pack_stream_bytes = std::size_t(3) << 19;
/// A launch writing fewer bytes runs on the calling thread where the backend
/// is OpenMP: waking its team costs more than the team saves.  Measured on
/// 1-rank f64 transposes into column-major blocks (`distarray redist --shape
/// NxN --to '*,block on 1x1' --to-order column-major`, 2 threads, `mpiexec
/// --bind-to none`, medians): at 64^2 11 us per execution through the team
/// under OMP_WAIT_POLICY=passive, 6 us under the default policy, 2 us on the
/// calling thread; at 128^2 (128 KiB) 14 and 8 us through the team, 4 us on
/// the calling thread; at 256^2 (512 KiB) the team breaks even or wins, at
/// 512^2 it takes 0.55 of one thread's time.
constexpr std::size_t on_caller_bytes = std::size_t(256) << 10;

/// How a host launch writes: with streamed stores, and on the calling thread.
struct HostLaunch {
  bool stream = false;
  bool on_caller = false;
};

/// Kokkos::parallel_for over items [begin, end) on `exec`, or, where
/// `on_caller` and `exec` is OpenMP, a loop on the calling thread (OpenMP's
/// launches return complete: the loop keeps their order on the instance).
template <class Exec, class Body>
void for_host_items(const char* name, const Exec& exec, index_t begin, index_t end, bool on_caller,
                    const Body& body) {
#if defined(KOKKOS_ENABLE_OPENMP)
  if constexpr (std::is_same_v<Exec, Kokkos::OpenMP>)
    if (on_caller) {
      for (index_t i = begin; i < end; ++i) body(i);
      return;
    }
#endif
  (void)on_caller;
  Kokkos::parallel_for(name, Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(exec, begin, end), body);
}

/// out[q] = op(from(q)) for q in [0, n): copied where the op only moves
/// bits; else in place through the op (which may read what it writes over:
/// ScaledCopy's beta).
template <class T, class Op, class From>
inline void write_line(T* out, index_t n, bool stream, bool pack, const Op& op, const From& from) {
  if constexpr (is_plain_copy<Op>::value) return copy_line(out, n, stream, from);
  for (index_t q = 0; q < n; ++q) {
    if (pack)
      op.pack(out[q], from(q));
    else
      op.unpack(out[q], from(q));
  }
}

/// Run chunks per streamed work item of copy_runs_host, at most: an sfence
/// after every chunk drained the write-combining buffers once per run of
/// the short-run cases (bench_pack_kernels --size 4096, three interleaved
/// rounds, 1 thread: short-run pack f32 0.42-0.44 of a copy with a fence
/// per chunk, 1.28-1.30 with one per 16; f64 0.65-0.70 -> 1.10-1.11).
constexpr index_t run_chunks_per_fence = 16;

/// copy_runs on a host backend, for every launch except streamed ones of
/// runs shorter than two lines (copy_runs' vector loops serve those
/// better): run chunks in order (up to run_chunks_per_fence per work item
/// where it streams, one else), each of their runs copied whole
/// into the side written (the buffer in a pack, the local block in an
/// unpack) — streamed where `stream` (one unaligned start per run, not one
/// per line), else by memmove where the run is contiguous on both sides.
/// memmove's wide stores took the 2-rank 1024^2 shared-engine transpose's
/// pack into a peer's segment from 0.13-0.14 to 0.10 ms and in-cache f64
/// short-run packs from 0.45 to 0.68 of a copy (bench_pack_kernels --size
/// 1024), against copy_runs' element loop.
template <class Space, class T, class Op>
void copy_runs_host(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                    const Kokkos::View<RunChunk*, Space>& chunks, index_t begin, index_t end, T* local,
                    T* buffer, bool pack, Op op, HostLaunch launch,
                    const typename Space::execution_space& exec) {
  const bool stream = launch.stream;
  const auto one_chunk = [=](const index_t i) {
    const RunChunk c = chunks(i);
    const CopyRow row = rows(c.row);
    for_item_runs<Space>(c, row.runs_end, runs, [&](const CopyRun& run, index_t jb, index_t je) {
      T* const l = local + row.local_base + run.start;
      T* const b = buffer + row.buffer_base + run.offset;
      const index_t s = run.stride;
      if (pack)
        write_line(b + jb, je - jb, stream, true, op, Spaced<T>{l + jb * s, s});
      else if (s == 1)
        write_line(l + jb, je - jb, stream, false, op, Spaced<T>{b + jb, 1});
      else  // spaced single elements of the local block, one by one
        for (index_t j = jb; j < je; ++j) op.unpack(l[j * s], b[j]);
    });
  };
  // Streamed, several chunks per work item and one fence after them, as
  // long as every thread still gets four items.
  const index_t quarter_share = (end - begin) / (4 * index_t(exec.concurrency()));
  const index_t group = stream ? std::clamp<index_t>(quarter_share, 1, run_chunks_per_fence) : 1;
  for_host_items(pack ? "distarray::pack" : "distarray::unpack", exec, 0, (end - begin + group - 1) / group,
                 launch.on_caller, [=](const index_t g) {
                   const index_t first = begin + g * group, last = first + group < end ? first + group : end;
                   for (index_t i = first; i < last; ++i) one_chunk(i);
                   if (stream) stream_fence();
                 });
}

/// copy_tiles on a host backend: one tile task per iteration, in strips of
/// square_side elements along the side written, each swept along the side read: a
/// pack reads along the rows (neighbours in the local block) and writes a
/// line of each row's run into the buffer; an unpack reads along the run
/// and writes a line of rows into the local block (where the rows are
/// neighbours in memory, else element by element).  Where the rows are also
/// evenly spaced in the buffer (every message's are), a square's pointers
/// are a base and two steps, computed once per strip (bench_pack_kernels,
/// transposing f64 pack: 0.62-0.72 of a copy with a lookup per row of each
/// square, 0.83-0.92 without).
template <class Space, class T, class Op>
void copy_tiles_host(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                     const Kokkos::View<TileTask*, Space>& tasks, index_t begin, index_t end, T* local,
                     T* buffer, bool pack, Op op, HostLaunch launch,
                     const typename Space::execution_space& exec) {
  const bool stream = launch.stream;
  constexpr index_t S = square_side<T>;  // a strip's width: squares of S x S
  constexpr bool in_squares = has_square_transpose<T> && is_plain_copy<Op>::value;
  for_host_items(
      pack ? "distarray::pack_tiled" : "distarray::unpack_tiled", exec, begin, end, launch.on_caller,
      [=](const index_t t) {
        const TileTask task = tasks(t);
        const CopyRow first = rows(task.row_begin);
        const index_t row_step = task.row_end - task.row_begin > 1
                                     ? rows(task.row_begin + 1).buffer_base - first.buffer_base
                                     : 0;  // buffer places from one row to the next
        bool adjacent = true;              // rows at consecutive local places: lines of the local block
        bool even = true;                  // and row_step apart in the buffer
        for (index_t r = task.row_begin; r < task.row_end; ++r) {
          adjacent = adjacent && rows(r).local_base == first.local_base + (r - task.row_begin);
          even = even && rows(r).buffer_base == first.buffer_base + (r - task.row_begin) * row_step;
        }
        // Every row of a message has the same runs (the first row's).
        for_item_runs<Space>(task, first.runs_end, runs, [&](const CopyRun& run, index_t jb, index_t je) {
          const index_t s = run.stride;
          // Element (r, j): local[rows(r).local_base + run.start + j s] and
          // buffer[rows(r).buffer_base + run.offset + j].
          const auto at_local = [&](index_t r, index_t j) {
            return local + rows(r).local_base + run.start + j * s;
          };
          const auto at_buffer = [&](index_t r, index_t j) {
            return buffer + rows(r).buffer_base + run.offset + j;
          };
          // Whether squares of S x S fit, their lines written from `written`,
          // `written_step` apart: on 16-byte boundaries where they stream.
          const auto squares_fit = [&](const T* written, index_t written_step) {
            return in_squares && adjacent && even &&
                   (!stream ||
                    ((reinterpret_cast<std::uintptr_t>(written) | std::uintptr_t(written_step * sizeof(T))) &
                     15) == 0);
          };
          if (pack) {  // read along the rows (neighbours in the local block), a line of the run at a time
            for (index_t j0 = jb; j0 < je; j0 += S) {
              const index_t nj = je - j0 < S ? je - j0 : S;
              index_t r = task.row_begin;
              if constexpr (in_squares) {  // S neighbouring rows at a time
                const T* const l = at_local(r, j0);
                T* const b = at_buffer(r, j0);
                if (nj == S && squares_fit(b, row_step))
                  for (; r + S <= task.row_end; r += S) {
                    const index_t d = r - task.row_begin;
                    copy_square_transposed<T>(stream, {l + d, s, b + d * row_step, row_step});
                  }
              }
              for (; r < task.row_end; ++r)
                write_line(at_buffer(r, j0), nj, stream, true, op, Spaced<T>{at_local(r, j0), s});
            }
          } else if (adjacent) {  // read along the run, a line of rows at a time
            for (index_t r0 = task.row_begin; r0 < task.row_end; r0 += S) {
              const index_t nr = task.row_end - r0 < S ? task.row_end - r0 : S;
              index_t j = jb;
              // S run elements at a time; 4-byte elements gather faster here
              // (squares: 0.74-0.86 of their time, bench_pack_kernels --type f32)
              if constexpr (in_squares && sizeof(T) != 4) {
                const T* const b = at_buffer(r0, 0);
                T* const l = at_local(r0, 0);
                if (nr == S && squares_fit(l + j * s, s))
                  for (; j + S <= je; j += S)
                    copy_square_transposed<T>(stream, {b + j, row_step, l + j * s, s});
              }
              for (; j < je; ++j)
                write_line(at_local(r0, j), nr, stream, false, op,
                           [&](index_t q) -> const T& { return *at_buffer(r0 + q, j); });
            }
          } else {
            for (index_t r = task.row_begin; r < task.row_end; ++r)
              for (index_t j = jb; j < je; ++j) op.unpack(*at_local(r, j), *at_buffer(r, j));
          }
        });
        if (stream) stream_fence();
      });
}

}  // namespace distarray::detail
