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
          if (pack)
            for (index_t j = 0; j < run.length; ++j) b[j] = l[j];
          else
            for (index_t j = 0; j < run.length; ++j) l[j] = b[j];
        }
      });
}

/// Rows and run elements per cache tile of a strided copy: 32 x 32 doubles
/// are 8 KiB on either side, well inside L1.
constexpr index_t copy_tile = 32;

/// copy_rows for rows [begin, end) of one message whose runs step through the
/// local block (a column-major side): a local transpose, one parallel
/// iteration per tile of rows, each walking its runs in tiles of run elements
/// with the inner loop along the side written (the buffer on pack, the local
/// block on unpack), so that writes are contiguous and reads stay in cache.
template <class Space, class T>
void copy_tiles(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
                index_t begin, index_t end, T* local, T* buf, bool pack, index_t shift = 0) {
  if (begin >= end) return;
  Kokkos::parallel_for(
      pack ? "distarray::pack_tiled" : "distarray::unpack_tiled",
      Kokkos::RangePolicy<typename Space::execution_space>(0, (end - begin + copy_tile - 1) / copy_tile),
      KOKKOS_LAMBDA(const index_t t) {
        const index_t r0 = begin + t * copy_tile;
        const index_t r1 = r0 + copy_tile < end ? r0 + copy_tile : end;
        const CopyRow first = rows(r0);  // every row of a message has the same runs
        for (index_t k = first.runs_begin; k < first.runs_end; ++k) {
          const CopyRun run = runs(k);
          for (index_t j0 = 0; j0 < run.length; j0 += copy_tile) {
            const index_t j1 = j0 + copy_tile < run.length ? j0 + copy_tile : run.length;
            if (pack) {
              for (index_t r = r0; r < r1; ++r) {
                const CopyRow row = rows(r);
                const T* l = local + row.local_base + run.start;
                T* b = buf + (row.buffer_base + shift + run.offset);
                for (index_t j = j0; j < j1; ++j) b[j] = l[j * run.stride];
              }
            } else {
              for (index_t j = j0; j < j1; ++j)
                for (index_t r = r0; r < r1; ++r) {
                  const CopyRow row = rows(r);
                  local[row.local_base + run.start + j * run.stride] =
                      buf[row.buffer_base + shift + run.offset + j];
                }
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
    copy_tiles(rows, runs, m.rows_begin, m.rows_end, local, buf, pack, shift);
  else
    copy_rows(rows, runs, m.rows_begin, m.rows_end, local, buf, pack, shift);
}

}  // namespace distarray::detail
