#pragma once
// CopyTable: where the elements of a rank's messages sit in its local block.
// A message to a peer is the tensor product of one PeerRuns per dimension
// (the direct method's composition, DESIGN Sec. 4 step 2); its elements go
// in row-major order of that product, which both sides enumerate alike.
//
// A message is stored as rows: one per index tuple of the outer dimensions,
// each copying the same list of inner runs (the innermost contiguous pieces).
// When the inner runs cover whole rows of the local block, dimensions are
// merged so that the unit of copy is as long as memory allows.

#include <distarray/core/row_major.hpp>
#include <distarray/redist/runs.hpp>

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

/// A contiguous piece of a row: `length` elements.
struct CopyRun {
  index_t start;  ///< from the row's local base
  index_t length;
  index_t offset;  ///< from the row's buffer base
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
  index_t total = 0;  ///< elements in all messages

  /// Appends the message to `rank` made of runs[d] along each dimension of a
  /// local block of the given extents.
  template <int D>
  void add_message(int rank, const std::array<const PeerRuns*, D>& per_dim, const Index<D>& extents);
};

/// The segments of a PeerRuns, expanded and merged, each scaled by `unit`.
std::vector<Segment> expanded_segments(const PeerRuns& r, index_t unit);
/// The local indices of a PeerRuns, expanded.
std::vector<index_t> expanded_indices(const PeerRuns& r);

template <int D>
void CopyTable::add_message(int rank, const std::array<const PeerRuns*, D>& per_dim,
                            const Index<D>& extents) {
  index_t count = 1;
  for (int d = 0; d < D; ++d) count *= per_dim[d]->size();
  if (count == 0) return;
  // Inner runs, merging trailing dimensions the message covers completely.
  int last = D - 1;
  index_t unit = 1;
  std::vector<Segment> inner = expanded_segments(*per_dim[last], unit);
  while (last > 0 && inner.size() == 1 && inner[0].start == 0 && inner[0].length == extents[last] * unit) {
    unit *= extents[last];
    --last;
    inner = expanded_segments(*per_dim[last], unit);
  }
  index_t inner_count = 0;
  const index_t runs_begin = index_t(runs.size());
  for (const Segment& s : inner) {
    runs.push_back({s.start, s.length, inner_count});
    inner_count += s.length;
  }
  const index_t runs_end = index_t(runs.size());
  // Rows: the outer dimensions' index tuples in row-major order.
  std::array<std::vector<index_t>, D> outer;
  std::array<index_t, D> stride{};
  index_t rows_count = 1;
  for (int d = last - 1; d >= 0; --d) {
    outer[d] = expanded_indices(*per_dim[d]);
    rows_count *= index_t(outer[d].size());
  }
  index_t step = 1;
  for (int d = D - 1; d >= 0; --d) {
    stride[d] = step;
    step *= extents[d];
  }
  const index_t rows_begin = index_t(rows.size());
  std::array<index_t, D> pos{};
  for (index_t r = 0; r < rows_count; ++r) {
    index_t base = 0;
    for (int d = 0; d < last; ++d) base += outer[d][std::size_t(pos[d])] * stride[d];
    rows.push_back({base, total + r * inner_count, runs_begin, runs_end});
    for (int d = last - 1; d >= 0; --d) {  // odometer over the outer tuples
      if (++pos[d] < index_t(outer[d].size())) break;
      pos[d] = 0;
    }
  }
  messages.push_back({rank, total, count, rows_begin, index_t(rows.size())});
  total += count;
}

}  // namespace distarray::detail
