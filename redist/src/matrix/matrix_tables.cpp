#ifndef DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL
#endif
#include <distarray/redist/detail/tables/matrix_tables.hpp>

#include "schedule/unpack_header.hpp"

#include <algorithm>
#include <map>

namespace distarray::detail {

namespace {

/// The local runs one process of B exchanges with each process of A along
/// one axis pair (or the reverse), keyed by the peer's process index.
using AxisRuns = std::map<int, PeerRuns>;

void append(AxisRuns& runs, int peer, index_t start, index_t length) {
  PeerRuns& r = runs[peer];
  r.peer = peer;
  if (r.patterns.empty()) r.patterns.push_back({0, 1, {}});
  std::vector<Segment>& s = r.patterns.front().segments;
  if (!s.empty() && s.back().start + s.back().length == start)
    s.back().length += length;
  else
    s.push_back({start, length});
}

/// What one process of B and one of A exchange along one axis pair.
struct AxisSplit {
  AxisRuns received;     // B-local runs of the pieces B's process holds, per A process
  AxisRuns sent;         // A-local runs of the pieces A's process holds, per B process
  AxisRuns sent_placed;  // the same pieces' B-local runs, per B process: the receivers' unpacking runs
};

/// Splits [0, length) of B's axis from b_at and A's axis from a_at at every
/// block edge of either, seen from B's process `b_proc` and A's process
/// `a_proc` (a negative process: this rank holds no part of that matrix).
AxisSplit split_axis(const CyclicAxis& b, index_t b_at, const CyclicAxis& a, index_t a_at, index_t length,
                     int b_proc, int a_proc) {
  AxisSplit split;
  for (index_t i = 0; i < length;) {
    const index_t gb = b_at + i, ga = a_at + i;
    const index_t piece = std::min({b.block() - gb % b.block(), a.block() - ga % a.block(), length - i});
    const int pb = b.owner(gb), pa = a.owner(ga);
    if (pb == b_proc) append(split.received, pa, b.local_index(gb), piece);
    if (pa == a_proc) {
      append(split.sent, pb, a.local_index(ga), piece);
      append(split.sent_placed, pb, b.local_index(gb), piece);
    }
    i += piece;
  }
  return split;
}

/// Hsu-Chung's encoding for a transform (ICPP'97, as a Plan's encoded
/// steps): each send message's header holds, per B axis, the receiver's
/// unpacking runs in the runs form; a receiver's decoder rebuilds its
/// receive message from a header alone, as its receive table would list it.
EncodedMessages encoding_of(const BlockCyclicMatrix& b, const CopyTable& send,
                            const std::array<AxisSplit, 2>& axes, const Index<2>& b_storage_extents) {
  EncodedMessages e;
  for (const CopyTable::Message& m : send.messages) {
    const auto q = *b.coord_of(m.rank);
    auto& header = e.headers.emplace_back();
    for (std::size_t d = 0; d < 2; ++d) {
      const auto it = axes[d].sent_placed.find(q[d]);
      append_run_words(header, it == axes[d].sent_placed.end() ? nullptr : &it->second);
    }
  }
  e.decode = [order = b.order, b_storage_extents](int source, const std::vector<index_t>& header) {
    std::size_t pos = 0;
    const std::array<PeerRuns, 2> runs = {read_run_words(header, pos, source),
                                          read_run_words(header, pos, source)};
    CopyTable table;
    table.add_message<2>(source, {&runs[0], &runs[1]}, b_storage_extents, order, order);
    return table;
  };
  return e;
}

/// The extents that give a local array its strides (storage_strides): the
/// leading dimension stands for the inner extent.
Index<2> storage_extents(const BlockCyclicMatrix& m, const Index<2>& local) {
  return m.order == StorageOrder::column_major ? Index<2>{m.leading, local[1]}
                                               : Index<2>{local[0], m.leading};
}

StorageOrder flipped(StorageOrder o) {
  return o == StorageOrder::row_major ? StorageOrder::column_major : StorageOrder::row_major;
}

}  // namespace

MatrixTables matrix_tables(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b,
                           Index<2> b_at, Index<2> extent, bool transpose, int rank, bool encode) {
  const auto mine_a = a.coord_of(rank), mine_b = b.coord_of(rank);
  // B's axis d pairs with A's axis d, or the other one under a transpose.
  const auto paired = [&](std::size_t d) { return transpose ? 1 - d : d; };
  std::array<AxisSplit, 2> axes;  // per B axis
  for (std::size_t d = 0; d < 2; ++d)
    axes[d] = split_axis(b.axes[d], b_at[d], a.axes[paired(d)], a_at[paired(d)], extent[d],
                         mine_b ? (*mine_b)[d] : -1, mine_a ? (*mine_a)[paired(d)] : -1);
  const std::array<AxisRuns, 2> received = {axes[0].received, axes[1].received},
                                sent = {axes[0].sent, axes[1].sent};
  MatrixTables t;
  // Messages in order of the peer's rank; elements in B's storage order.
  const auto add = [](CopyTable& table, const BlockCyclicMatrix& peer_matrix, const BlockCyclicMatrix& own,
                      const std::array<AxisRuns, 2>& runs, bool swap_axes, StorageOrder message_order,
                      const Index<2>& extents) {
    std::map<int, std::array<const PeerRuns*, 2>> by_rank;
    for (const auto& [p0, r0] : runs[0])
      for (const auto& [p1, r1] : runs[1]) {
        // runs[d] runs along this side's axis d; the peer's process along its own axis 0 keys runs[0] unless
        // the axes swap.
        const int row = swap_axes ? p1 : p0, col = swap_axes ? p0 : p1;
        by_rank[peer_matrix.ranks[std::size_t(row * peer_matrix.axes[1].procs() + col)]] = {&r0, &r1};
      }
    for (const auto& [peer, per_dim] : by_rank)
      table.add_message<2>(peer, per_dim, extents, own.order, message_order);
  };
  if (mine_b)  // keyed by A's process along A's axis paired with B's axis d
    add(t.recv, a, b, received, transpose, b.order, storage_extents(b, b.local_extents(rank)));
  if (mine_a) {  // sent[d] runs along A's axis paired with B's d: reordered to A's axes
    std::array<AxisRuns, 2> along_a = sent;
    if (transpose) std::swap(along_a[0], along_a[1]);
    add(t.send, b, a, along_a, transpose, transpose ? flipped(b.order) : b.order,
        storage_extents(a, a.local_extents(rank)));
  }
  if (encode) t.encoded = encoding_of(b, t.send, axes, storage_extents(b, b.local_extents(rank)));
  return t;
}

}  // namespace distarray::detail
