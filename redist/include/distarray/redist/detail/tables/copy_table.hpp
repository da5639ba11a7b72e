#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/tables/copy_table.hpp is internal: include <distarray/redist.hpp>"
#endif
// CopyTable: where the elements of a rank's messages sit in its local block.
// A message to a peer is the tensor product of one PeerRuns per dimension
// (the direct method's composition, ARCHITECTURE Sec. 4.2); its elements go
// in row-major (or column-major) order of that product, which both sides
// enumerate alike.
//
// A message is stored as rows: one per index tuple of the outer dimensions,
// each copying the same list of inner runs (pieces along the innermost
// dimension of the message order).  When the block is stored in the message
// order the runs are contiguous, and when they cover whole rows of the local
// block, dimensions are merged so that the unit of copy is as long as memory
// allows.  Otherwise a run steps through memory by `stride` (a local
// transpose, which copy_tiles does in cache tiles).

#include <distarray/core/detail/index_tuples.hpp>
#include <distarray/core/storage_order.hpp>
#include <distarray/redist/runs.hpp>

#include <algorithm>
#include <array>
#include <vector>

namespace distarray::detail {

/// One row of a message: local_base + run.start <-> buffer_base + run.offset.
struct CopyRow {
  index_t local_base;
  index_t buffer_base;
  index_t runs_begin;
  index_t runs_end;
};

/// A piece of a row: `length` elements, `stride` apart in the local block
/// (1: contiguous; more for a local transpose, or for single elements at a
/// constant spacing), consecutive in the buffer.
struct CopyRun {
  index_t start;  ///< from the row's local base
  index_t length;
  index_t offset;  ///< from the row's buffer base
  index_t stride;
};

/// Rows and run elements per cache tile of a strided copy (32 x 32 doubles:
/// 8 KiB, inside L1), and run elements per TLB block: the tiles of one
/// block of rows x copy_block run elements touch few enough pages to stay
/// in the TLB.
constexpr index_t copy_tile = 32;
constexpr index_t copy_block = 256;
/// Rows per tile task of a host thread: each strip of a task reads its
/// streams along this many rows (bench_pack_kernels, transposing f32 pack:
/// 0.78-0.80 of a copy with 1024, 0.57-0.68 with 256).
constexpr index_t host_task_rows = 1024;

/// One team's work in copy_tiles: rows [row_begin, row_end) of one message
/// (at most copy_tile) and its run elements [element_begin, element_end) (at
/// most copy_block), or a host thread's (at most host_task_rows rows,
/// host_copy_kernels.hpp); run_begin is the first run ending past element_begin.
struct TileTask {
  index_t row_begin, row_end;
  index_t element_begin, element_end;
  index_t run_begin;
};

/// The elements of a row that one parallel work item of copy_runs copies:
/// at most copy_chunk, so that a table of one long row (a whole message
/// merged into one run) still spreads over every thread.
constexpr index_t copy_chunk = 4096;

/// One work item of copy_runs: row `row`'s run elements [element_begin,
/// element_end); run_begin is the first run ending past element_begin.
struct RunChunk {
  index_t row;
  index_t element_begin, element_end;
  index_t run_begin;
};

struct CopyTable {
  struct Message {
    int rank;        ///< in the exchange's communicator
    index_t offset;  ///< first element in the buffer
    index_t count;
    index_t rows_begin, rows_end;
  };
  std::vector<Message> messages;
  std::vector<CopyRow> rows;
  std::vector<CopyRun> runs;
  index_t total = 0;     ///< elements in all messages
  bool strided = false;  ///< runs step across the block's storage order (a local transpose)

  /// The tile tasks of messages [first, last): blocks of at most
  /// rows_per_task rows by elements_per_task run elements, the row blocks of
  /// a block of run elements consecutive (so that a thread reuses its pages).
  std::vector<TileTask> tile_tasks(std::size_t first, std::size_t last, index_t rows_per_task = copy_tile,
                                   index_t elements_per_task = copy_block) const;
  /// The run chunks of messages [first, last), in row order: each row's
  /// elements cut into pieces of at most copy_chunk, so at least
  /// elements / copy_chunk of them.
  std::vector<RunChunk> run_chunks(std::size_t first, std::size_t last) const;
  /// Every message's run chunks in the order of their first elements' places
  /// in the local block: a thread reading the block then sweeps it in
  /// memory order instead of once per message (a pack on a host:
  /// packer.hpp says why).
  std::vector<RunChunk> run_chunks_in_local_order() const;
  /// Elements per run of a row, on average over every row (1 for no row).
  double mean_run_length() const;
  /// Appends `other`'s messages, their elements after this table's in the buffer.
  void append(const CopyTable& other);
  /// This table without message `skip`, the later ones moved up in the buffer.
  CopyTable without(std::size_t skip) const;
  /// The buffer places one row of message `m` spans: its elements per row,
  /// or more where a joined table's buffer is another block (own_message.hpp).
  index_t row_extent(const Message& m) const;

  /// Appends the message to `rank` made of runs[d] along each dimension of a
  /// local block of the given extents and storage order; its elements go in
  /// `message_order` of the product (the same on both sides of an exchange).
  template <int D>
  void add_message(int rank, std::array<const PeerRuns*, D> per_dim, Index<D> extents,
                   StorageOrder order = StorageOrder::row_major,
                   StorageOrder message_order = StorageOrder::row_major);
};

/// The segments of a PeerRuns, expanded and merged, each scaled by `unit`.
std::vector<Segment> expanded_segments(const PeerRuns& r, index_t unit);
/// The local indices of a PeerRuns, expanded.
std::vector<index_t> expanded_indices(const PeerRuns& r);
/// True for two or more segments of one element each at a constant spacing.
bool evenly_spaced_singles(const std::vector<Segment>& segments);

template <int D>
void CopyTable::add_message(int rank, std::array<const PeerRuns*, D> per_dim, Index<D> extents,
                            StorageOrder order, StorageOrder message_order) {
  if (message_order == StorageOrder::column_major) {
    // Column-major order is row-major order of the reversed dimensions, in
    // which the block's storage order flips.
    std::reverse(per_dim.begin(), per_dim.end());
    std::reverse(extents.begin(), extents.end());
    order = order == StorageOrder::row_major ? StorageOrder::column_major : StorageOrder::row_major;
  }
  index_t count = 1;
  for (int d = 0; d < D; ++d) count *= per_dim[d]->size();
  if (count == 0) return;
  const std::array<index_t, D> stride = storage_strides(extents, order);
  // Inner runs, merging trailing dimensions the message covers completely
  // (row-major only: there they are contiguous).
  int last = D - 1;
  index_t unit = 1;
  std::vector<Segment> inner = expanded_segments(*per_dim[last], unit);
  if constexpr (D > 1)  // (the guard also spares GCC 12 a false -Warray-bounds at D = 1)
    while (order == StorageOrder::row_major && last > 0 && inner.size() == 1 && inner[0].start == 0 &&
           inner[0].length == extents[last] * unit) {
      unit *= extents[last];
      --last;
      inner = expanded_segments(*per_dim[last], unit);
    }
  index_t inner_count = 0;
  const index_t runs_begin = index_t(runs.size());
  // Merged row-major segments are already in elements of the block.
  const index_t step = order == StorageOrder::row_major ? 1 : stride[last];
  if (step == 1 && evenly_spaced_singles(inner)) {
    // Single elements at a constant spacing (cyclic(1)): one run with that stride.
    const index_t spacing = inner[1].start - inner[0].start;
    runs.push_back({inner[0].start, index_t(inner.size()), 0, spacing});
    inner_count = index_t(inner.size());
  } else {
    for (const Segment& s : inner) {
      runs.push_back({s.start * step, s.length, inner_count, step});
      inner_count += s.length;
    }
  }
  strided = strided || (step != 1 && inner_count > 1);
  const index_t runs_end = index_t(runs.size());
  // Rows: the outer dimensions' index tuples in row-major order.
  std::array<std::vector<index_t>, D> outer;
  std::array<std::size_t, D> sizes{};  // 1 beyond `last`: one tuple per row
  sizes.fill(1);
  for (int d = 0; d < last; ++d) {
    outer[d] = expanded_indices(*per_dim[d]);
    sizes[d] = outer[d].size();
  }
  const index_t rows_begin = index_t(rows.size());
  index_t row_offset = total;
  for_each_tuple(sizes, [&](const std::array<std::size_t, D>& pos) {
    index_t base = 0;
    for (int d = 0; d < last; ++d) base += outer[d][pos[d]] * stride[d];
    rows.push_back({base, row_offset, runs_begin, runs_end});
    row_offset += inner_count;
  });
  messages.push_back({rank, total, count, rows_begin, index_t(rows.size())});
  total += count;
}

}  // namespace distarray::detail
