#pragma once
// The pack and unpack kernels of an exchange: Kokkos parallel loops over the
// rows of a CopyTable on the array's execution space.  Contiguous runs are
// copied as units; strided runs (a column-major side) are a local transpose,
// copied in cache tiles.  Free functions: CUDA's extended lambdas may not live
// in private member functions.

#include <distarray/redist/detail/copy_table.hpp>

#include <Kokkos_Core.hpp>

namespace distarray::detail {

/// Rows [begin, end) of a copy table: pack (local -> buffer) or unpack
/// (buffer -> local), one parallel iteration per row; buffer positions are
/// shifted by `shift` elements.
template <class Space, class T>
void copy_rows(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
               index_t begin, index_t end, T* local, T* buf, bool pack, index_t shift = 0) {
  if (begin >= end) return;
  Kokkos::parallel_for(
      pack ? "distarray::pack" : "distarray::unpack",
      Kokkos::RangePolicy<typename Space::execution_space>(begin, end), KOKKOS_LAMBDA(const index_t i) {
        const CopyRow row = rows(i);
        for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
          const CopyRun run = runs(k);
          T* l = local + row.local_base + run.start;
          T* b = buf + (row.buffer_base + shift + run.offset);
          if (run.stride != 1) {  // single elements at a constant spacing
            if (pack)
              for (index_t j = 0; j < run.length; ++j) b[j] = l[j * run.stride];
            else
              for (index_t j = 0; j < run.length; ++j) l[j * run.stride] = b[j];
            continue;
          }
          // A block and a buffer never overlap: restrict lets the copy vectorize.
          T* KOKKOS_RESTRICT to = pack ? b : l;
          const T* KOKKOS_RESTRICT from = pack ? l : b;
          for (index_t j = 0; j < run.length; ++j) to[j] = from[j];
        }
      });
}

/// Rows and run elements per cache tile of a strided copy (32 x 32 doubles:
/// 8 KiB, inside L1), and run elements per TLB block: the tiles of one
/// block of rows x copy_block run elements touch few enough pages to stay
/// in the TLB.
constexpr index_t copy_tile = 32;
constexpr index_t copy_block = 256;

/// copy_rows for rows [begin, end) of one message whose runs step through the
/// local block (a local transpose), `row_elements` elements per row.  One
/// team per tile of rows and block of run elements, the row tiles of a block
/// consecutive (so that a serial or threaded backend reuses its pages).  A
/// tile goes through team scratch memory (on a GPU, shared memory; never a
/// per-thread stack array) so that the local block (along the rows,
/// contiguous when they are neighbours in memory) and the buffer (along a
/// run) are both read and written in order: the team's threads take the
/// outer index and its vector lanes the contiguous one.
template <class Space, class T>
void copy_tiles(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                index_t begin, index_t end, index_t row_elements, T* local, T* buf, bool pack,
                index_t shift = 0) {
  if (begin >= end || row_elements == 0) return;
  using Exec = typename Space::execution_space;
  using Policy = Kokkos::TeamPolicy<Exec, Kokkos::IndexType<index_t>>;
  using ScratchSpace = typename Exec::scratch_memory_space;
  // The tile, one column of padding against shared-memory bank conflicts.
  using Tile = Kokkos::View<T[copy_tile][copy_tile + 1], ScratchSpace, Kokkos::MemoryUnmanaged>;
  using Bases = Kokkos::View<index_t[copy_tile], ScratchSpace, Kokkos::MemoryUnmanaged>;
  const index_t row_tiles = (end - begin + copy_tile - 1) / copy_tile;
  const index_t blocks = (row_elements + copy_block - 1) / copy_block;
  Policy policy(row_tiles * blocks, Kokkos::AUTO, Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(Tile::shmem_size() + 2 * Bases::shmem_size()));
  Kokkos::parallel_for(
      pack ? "distarray::pack_tiled" : "distarray::unpack_tiled", policy,
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const index_t t = team.league_rank();
        const index_t r0 = begin + (t % row_tiles) * copy_tile;
        const index_t nr = r0 + copy_tile < end ? copy_tile : end - r0;
        const index_t e0 = (t / row_tiles) * copy_block;  // the block's run elements [e0, e1)
        const index_t e1 = e0 + copy_block < row_elements ? e0 + copy_block : row_elements;
        Tile tile(team.team_scratch(0));  // [row][run element]
        Bases lbase(team.team_scratch(0)), bbase(team.team_scratch(0));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
          const CopyRow row = rows(r0 + r);
          lbase(r) = row.local_base;
          bbase(r) = row.buffer_base + shift;
        });
        team.team_barrier();
        // The rows are neighbours in the local block (the common case): one
        // base and unit steps, so the local side is read or written in order.
        int adjacent = 1;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, nr),
            [&](const index_t r, int& ok) { ok = ok && lbase(r) == lbase(0) + r; },
            Kokkos::LAnd<int>(adjacent));
        // Every row of a message has the same runs; find the first that ends past e0.
        const CopyRow first = rows(r0);
        index_t lo = first.runs_begin, hi = first.runs_end;
        while (lo < hi) {
          const index_t mid = (lo + hi) / 2;
          const CopyRun run = runs(mid);
          if (run.offset + run.length <= e0)
            lo = mid + 1;
          else
            hi = mid;
        }
        // One tile's copy; `at(r, j)` is the local index of tile element (r, j).
        const auto copy = [&](const index_t nj, T* b, const auto& at) {
          if (pack) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nj), [&](const index_t j) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nr),
                                   [&](const index_t r) { tile(r, j) = local[at(r, j)]; });
            });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nj),
                                   [&](const index_t j) { b[bbase(r) + j] = tile(r, j); });
            });
          } else {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nr), [&](const index_t r) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nj),
                                   [&](const index_t j) { tile(r, j) = b[bbase(r) + j]; });
            });
            team.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, nj), [&](const index_t j) {
              Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, nr),
                                   [&](const index_t r) { local[at(r, j)] = tile(r, j); });
            });
          }
          team.team_barrier();  // the tile is reused
        };
        for (index_t k = lo; k < first.runs_end; ++k) {
          const CopyRun run = runs(k);
          if (run.offset >= e1) break;
          const index_t jb = e0 > run.offset ? e0 - run.offset : 0;
          const index_t je = e1 - run.offset < run.length ? e1 - run.offset : run.length;
          for (index_t j0 = jb; j0 < je; j0 += copy_tile) {
            const index_t nj = j0 + copy_tile < je ? copy_tile : je - j0;
            const index_t lofs = run.start + j0 * run.stride, stride = run.stride;
            if (adjacent) {  // unit steps along the rows: in order, no indirection
              const index_t base = lbase(0) + lofs;
              copy(nj, buf + run.offset + j0, [=](index_t r, index_t j) { return base + r + j * stride; });
            } else {
              copy(nj, buf + run.offset + j0,
                   [&](index_t r, index_t j) { return lbase(r) + lofs + j * stride; });
            }
          }
        }
      });
}

/// Copies the rows of a table's message `m` (see copy_rows) in the kernel its runs need.
template <class Space, class T>
void copy_message(const CopyTable::Message& m, bool strided, const Kokkos::View<CopyRow*, Space>& rows,
                  const Kokkos::View<CopyRun*, Space>& runs, T* local, T* buf, bool pack, index_t shift = 0) {
  if (strided)
    copy_tiles(rows, runs, m.rows_begin, m.rows_end, m.count / (m.rows_end - m.rows_begin), local, buf, pack,
               shift);
  else
    copy_rows(rows, runs, m.rows_begin, m.rows_end, local, buf, pack, shift);
}

}  // namespace distarray::detail
