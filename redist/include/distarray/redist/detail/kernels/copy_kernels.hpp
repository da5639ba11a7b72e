#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/copy_kernels.hpp is internal: include <distarray/redist.hpp>"
#endif
// The two copy kernels of the packers, each one Kokkos launch over any
// number of messages of a CopyTable side: copy_runs (contiguous runs, and
// single elements at a constant spacing, in chunks of at most copy_chunk
// elements of a row) and copy_tiles (a local transpose in cache tiles),
// each applying an element op (element_op.hpp) on the way; and scale_runs,
// which scales a table's local elements in place.  The packer runs the
// first two on devices, and host_copy_kernels.hpp's specialisations on host
// backends.  Free functions: CUDA's extended lambdas may not live in
// private member functions.

#include <distarray/redist/detail/kernels/element_op.hpp>
#include <distarray/redist/detail/kernels/item_launch.hpp>
#include <distarray/redist/detail/tables/copy_table.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>

namespace distarray::detail {

/// Calls f(run, jb, je) for the run elements [jb, je) of each run, from
/// `item.run_begin` to `runs_end`, inside the item's elements
/// [element_begin, element_end) of a row: a run chunk or a tile task.
template <class Space, class Item, class F>
KOKKOS_INLINE_FUNCTION void for_item_runs(const Item& item, index_t runs_end,
                                          const Kokkos::View<CopyRun*, Space>& runs, const F& f) {
  for (index_t k = item.run_begin; k < runs_end; ++k) {
    const CopyRun run = runs(k);
    if (run.offset >= item.element_end) break;
    const index_t jb = item.element_begin > run.offset ? item.element_begin - run.offset : 0;
    const index_t je =
        item.element_end - run.offset < run.length ? item.element_end - run.offset : run.length;
    f(run, jb, je);
  }
}

/// Run chunks [begin, end) of a table (CopyTable::run_chunks): pack (local
/// -> buffer) or unpack (buffer -> local) through `op`, one thread per chunk
/// of at most copy_chunk elements of a row and `lanes` vector lanes across
/// the elements of each of its runs (for_each_item).
template <class Space, class T, class Op>
void copy_runs(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
               const Kokkos::View<RunChunk*, Space>& chunks, index_t begin, index_t end, T* local, T* buffer,
               bool pack, Op op, int lanes, const typename Space::execution_space& exec) {
  using Exec = typename Space::execution_space;
  for_each_item(
      pack ? "distarray::pack" : "distarray::unpack", exec, begin, end, lanes,
      KOKKOS_LAMBDA(const index_t i, const ItemTeam<Exec>& team) {
        const RunChunk chunk = chunks(i);
        const CopyRow row = rows(chunk.row);
        T* const row_buffer = buffer + row.buffer_base;
        for_item_runs<Space>(chunk, row.runs_end, runs, [&](const CopyRun& run, index_t jb, index_t je) {
          T* const l = local + row.local_base + run.start;
          T* const b = row_buffer + run.offset;
          const index_t s = run.stride;  // 1, or single elements at a constant spacing
          const auto lane_range = Kokkos::ThreadVectorRange(team, jb, je);
          if (pack && s == 1)
            Kokkos::parallel_for(lane_range, [&](const index_t j) { op.pack(b[j], l[j]); });
          else if (pack)
            Kokkos::parallel_for(lane_range, [&](const index_t j) { op.pack(b[j], l[j * s]); });
          else if (s == 1)
            Kokkos::parallel_for(lane_range, [&](const index_t j) { op.unpack(l[j], b[j]); });
          else
            Kokkos::parallel_for(lane_range, [&](const index_t j) { op.unpack(l[j * s], b[j]); });
        });
      });
}

/// Tile tasks [begin, end) (CopyTable::tile_tasks) of a table whose runs step
/// through the local block (a local transpose).  One team per task: a tile
/// of rows and a block of run elements.  The tile goes through team scratch
/// memory (on a GPU, shared memory; never a per-thread stack array) so that
/// the local block (along the rows, contiguous when they are neighbours in
/// memory) and the buffer (along a run) are both read and written in order:
/// the team's threads take the outer index and its vector lanes the
/// contiguous one.  The op is applied where the tile is written out, so
/// that it may read what it writes over (Direct with beta, element_op.hpp).
template <class Space, class T, class Op>
void copy_tiles(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                const Kokkos::View<TileTask*, Space>& tasks, index_t begin, index_t end, T* local, T* buffer,
                bool pack, Op op, const typename Space::execution_space& exec) {
  if (begin >= end) return;
  using Exec = typename Space::execution_space;
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::IndexType<index_t>>;
  using ScratchSpace = typename Exec::scratch_memory_space;
  // The tile, one column of padding against shared-memory bank conflicts.
  using Tile = Kokkos::View<T[copy_tile][copy_tile + 1], ScratchSpace, Kokkos::MemoryUnmanaged>;
  using Bases = Kokkos::View<index_t[copy_tile], ScratchSpace, Kokkos::MemoryUnmanaged>;
  // A warp's lanes take a tile's contiguous index (rows on the local side,
  // run elements on the buffer side): coalesced on both sides.
  Policy policy(exec, end - begin, Kokkos::AUTO, std::min<int>(copy_tile, Policy::vector_length_max()));
  policy.set_scratch_size(0, Kokkos::PerTeam(Tile::shmem_size() + 2 * Bases::shmem_size()));
  Kokkos::parallel_for(
      pack ? "distarray::pack_tiled" : "distarray::unpack_tiled", policy,
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const TileTask task = tasks(begin + team.league_rank());
        const index_t r0 = task.row_begin, nr = task.row_end - task.row_begin;
        Tile tile(team.team_scratch(0));  // [row][run element]
        Bases lbase(team.team_scratch(0)), bbase(team.team_scratch(0));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
          const CopyRow row = rows(r0 + r);
          lbase(r) = row.local_base;
          bbase(r) = row.buffer_base - rows(r0).buffer_base;
        });
        team.team_barrier();
        // The rows are neighbours in the local block (the common case): one
        // base and unit steps, so the local side is read or written in order.
        int adjacent = 1;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, nr),
            [&](const index_t r, int& ok) { ok = ok && lbase(r) == lbase(0) + r; },
            Kokkos::LAnd<int>(adjacent));
        // Every row of a message has the same runs and consecutive buffer places.
        const CopyRow first = rows(r0);
        // One tile's copy: tile element (r, j) is local[at(r, j)] and b[bbase(r) + j].
        const auto copy = [&](const index_t nj, T* b, const auto& at) {
          if (pack) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nj), [&](const index_t j) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nr),
                                   [&](const index_t r) { tile(r, j) = local[at(r, j)]; });
            });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nj),
                                   [&](const index_t j) { op.pack(b[bbase(r) + j], tile(r, j)); });
            });
          } else {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nj),
                                   [&](const index_t j) { tile(r, j) = b[bbase(r) + j]; });
            });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nj), [&](const index_t j) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nr),
                                   [&](const index_t r) { op.unpack(local[at(r, j)], tile(r, j)); });
            });
          }
          team.team_barrier();  // the tile is reused
        };
        T* const row_buffer = buffer + first.buffer_base;
        for_item_runs<Space>(task, first.runs_end, runs, [&](const CopyRun& run, index_t jb, index_t je) {
          for (index_t j0 = jb; j0 < je; j0 += copy_tile) {
            const index_t nj = j0 + copy_tile < je ? copy_tile : je - j0;
            const index_t lofs = run.start + j0 * run.stride, stride = run.stride;
            T* const b = row_buffer + (run.offset + j0);
            if (adjacent) {  // unit steps along the rows: in order, no indirection
              const index_t base = lbase(0) + lofs;
              copy(nj, b, [=](index_t r, index_t j) { return base + r + j * stride; });
            } else {
              copy(nj, b, [&](index_t r, index_t j) { return lbase(r) + lofs + j * stride; });
            }
          }
        });
      });
}

/// Run chunks [begin, end) of a table: each local element l becomes beta*l,
/// or 0 without being read when beta is 0 (B = beta*B of a transform with
/// alpha = 0); threads and lanes as in copy_runs.
template <class Space, class T>
void scale_runs(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                const Kokkos::View<RunChunk*, Space>& chunks, index_t begin, index_t end, T* local, T beta,
                int lanes, const typename Space::execution_space& exec) {
  using Exec = typename Space::execution_space;
  const bool beta_zero = beta == T(0);  // compared here: std::complex's == is host code
  for_each_item(
      "distarray::scale", exec, begin, end, lanes,
      KOKKOS_LAMBDA(const index_t i, const ItemTeam<Exec>& team) {
        const RunChunk chunk = chunks(i);
        const CopyRow row = rows(chunk.row);
        for_item_runs<Space>(chunk, row.runs_end, runs, [&](const CopyRun& run, index_t jb, index_t je) {
          T* const l = local + row.local_base + run.start;
          Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, jb, je), [&](const index_t j) {
            T& x = l[j * run.stride];
            if (beta_zero)
              zeroed(x);
            else
              scaled(x, beta, x, false);
          });
        });
      });
}

}  // namespace distarray::detail
