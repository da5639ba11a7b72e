// OnePass (one_pass.hpp): the posts, the joined tables and their places.

#include "one_pass.hpp"

#include <distarray/core/detail/collective.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <thread>

namespace distarray::detail {

namespace {

/// A post's fields in a rank's slot, the execution's number last.
enum Field { making_0, making_1, offset_field, process_field, execution_field, fields };

/// The messages of `t` that `keep` keeps, at their places in its buffer.
template <class Keep>
CopyTable messages_of(const CopyTable& t, Keep&& keep) {
  CopyTable kept;
  kept.runs = t.runs;
  kept.strided = t.strided;
  for (const auto& m : t.messages) {
    if (!keep(m.rank)) continue;
    const auto first = index_t(kept.rows.size());
    kept.rows.insert(kept.rows.end(), t.rows.begin() + m.rows_begin, t.rows.begin() + m.rows_end);
    kept.messages.push_back({m.rank, m.offset, m.count, first, index_t(kept.rows.size())});
    kept.total = m.offset + m.count;
  }
  return kept;
}

/// Message `m` of `t` alone, as a receiver sends it to its sender.
std::vector<long long> flattened(const CopyTable& t, const CopyTable::Message& m) {
  index_t runs_begin = 0, runs_end = 0;
  if (m.rows_end > m.rows_begin) runs_begin = t.rows[std::size_t(m.rows_begin)].runs_begin;
  for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
    runs_begin = std::min(runs_begin, t.rows[std::size_t(r)].runs_begin);
    runs_end = std::max(runs_end, t.rows[std::size_t(r)].runs_end);
  }
  std::vector<long long> v{m.count, m.rows_end - m.rows_begin, runs_end - runs_begin, t.strided};
  for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
    const CopyRow& row = t.rows[std::size_t(r)];
    v.insert(v.end(), {row.local_base, row.buffer_base - m.offset, row.runs_begin - runs_begin,
                       row.runs_end - runs_begin});
  }
  for (index_t r = runs_begin; r < runs_end; ++r) {
    const CopyRun& run = t.runs[std::size_t(r)];
    v.insert(v.end(), {run.start, run.length, run.offset, run.stride});
  }
  return v;
}

/// flattened()'s message back as a table of one message from `rank`.
CopyTable unflattened(const long long* v, int rank) {
  CopyTable t;
  t.total = v[0];
  t.strided = v[3] != 0;
  const long long rows = v[1], runs = v[2];
  const long long* at = v + 4;
  for (long long r = 0; r < rows; ++r, at += 4) t.rows.push_back({at[0], at[1], at[2], at[3]});
  for (long long r = 0; r < runs; ++r, at += 4) t.runs.push_back({at[0], at[1], at[2], at[3]});
  t.messages.push_back({rank, 0, t.total, 0, index_t(rows)});
  return t;
}

/// `t` (one joined message) after the rows of `all`, its local side moved
/// by `local` elements and its buffer side by `buffer`.
void append_moved(CopyTable& all, const CopyTable& t, index_t local, index_t buffer) {
  const auto run_shift = index_t(all.runs.size()), first = index_t(all.rows.size());
  all.runs.insert(all.runs.end(), t.runs.begin(), t.runs.end());
  for (const CopyRow& r : t.rows)
    all.rows.push_back(
        {r.local_base + local, r.buffer_base + buffer, r.runs_begin + run_shift, r.runs_end + run_shift});
  all.messages.push_back({t.messages[0].rank, all.total, t.total, first, index_t(all.rows.size())});
  all.total += t.total;
  all.strided = all.strided || t.strided;
}

}  // namespace

OnePass::OnePass(const StepShape& shape, MPI_Comm node, const std::vector<int>& node_rank,
                 const CopyTable& send, const CopyTable& recv, const CopyTable& placed,
                 PlacedBuffers& buffers, NodeMemory::Where where)
    : shape_(shape),
      node_(node),
      node_rank_(node_rank),
      send_(send),
      recv_(recv),
      buffers_(buffers),
      where_(where),
      slots_(node, fields * sizeof(long long), shape.comm, "shared exchange") {
  const auto off_node = [this](int rank) { return node_rank_[std::size_t(rank)] == MPI_UNDEFINED; };
  outgoing_ = messages_of(placed, off_node);
  incoming_ = messages_of(recv, off_node);
}

void OnePass::post(const Post& mine) {
  auto* slot = reinterpret_cast<long long*>(slots_.block(slots_.me()));
  slot[making_0] = mine.making[0];
  slot[making_1] = mine.making[1];
  slot[offset_field] = mine.offset;
  slot[process_field] = mine.process;
  std::atomic_ref<long long>(slot[execution_field]).store(execution_, std::memory_order_release);
}

OnePass::Post OnePass::read_post(int r) const {
  auto* slot = reinterpret_cast<long long*>(slots_.block(r));
  // (A peer posts execution n + 1 only after this rank has joined the
  // node barrier of execution n, after this read.)
  while (std::atomic_ref<long long>(slot[execution_field]).load(std::memory_order_acquire) != execution_) {
    int ignored = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, node_, &ignored, MPI_STATUS_IGNORE);  // MPI's progress
    std::this_thread::yield();
  }
  return {{slot[making_0], slot[making_1]}, slot[offset_field], slot[process_field]};
}

bool OnePass::ready(const void* out) {
  ++execution_;
  const NodeSharedPlace held = node_shared_holding(out);
  // (Blocks whole elements apart in any mapping: alike on every rank.)
  const bool mine = held.memory && held.memory->where() == where_ &&
                    held.memory->alignment() % shape_.element_bytes == 0 &&
                    held.offset % shape_.element_bytes == 0;
  Post own{{0, 0}, -1, static_cast<long long>(getpid())};
  if (mine) own = {held.memory->making(), static_cast<long long>(held.offset), own.process};
  post(own);
  if (!mine) return false;
  std::vector<Post> posts;
  for (int r = 0; r < slots_.ranks(); ++r) posts.push_back(r == slots_.me() ? own : read_post(r));
  // Every rank's destination in one making, mapped here (the same answer on
  // every rank: the posts and the making's processes are the same).
  std::vector<char*> at;
  for (const Post& p : posts) {
    if (p.offset < 0 || p.making != own.making) return false;
    int j = 0;
    while (j < held.memory->ranks() && held.memory->process_of(j) != p.process) ++j;
    if (j == held.memory->ranks()) return false;
    at.push_back(held.memory->block(j) + p.offset);
  }
  if (!joined_done_) join();  // (alike on the node: the same execution on every rank)
  if (posts != placed_for_) {
    place(at);
    placed_for_ = posts;
  }
  return true;
}

void OnePass::join() {
  const auto ranks = std::size_t(slots_.ranks());
  // Each receiver's tables of the messages from its peers of the node, to them.
  std::vector<std::vector<long long>> out(ranks);
  for (const auto& m : recv_.messages) {
    const int to = node_rank_[std::size_t(m.rank)];
    if (to != MPI_UNDEFINED && m.rank != shape_.rank && m.count > 0)
      out[std::size_t(to)] = flattened(recv_, m);
  }
  std::vector<int> counts(ranks), theirs(ranks), sdispls(1, 0), rdispls(1, 0);
  std::vector<long long> sent;
  for (std::size_t r = 0; r < ranks; ++r) {
    counts[r] = int(out[r].size());
    sent.insert(sent.end(), out[r].begin(), out[r].end());
    sdispls.push_back(sdispls.back() + counts[r]);
  }
  DISTARRAY_MPI_CHECK(MPI_Alltoall(counts.data(), 1, MPI_INT, theirs.data(), 1, MPI_INT, node_));
  for (std::size_t r = 0; r < ranks; ++r) rdispls.push_back(rdispls.back() + theirs[r]);
  std::vector<long long> received(std::size_t(rdispls.back()));
  DISTARRAY_MPI_CHECK(MPI_Alltoallv(sent.data(), counts.data(), sdispls.data(), MPI_LONG_LONG,
                                    received.data(), theirs.data(), rdispls.data(), MPI_LONG_LONG, node_));
  for (std::size_t s = 0; s < send_.messages.size(); ++s) {
    const int to = node_rank_[std::size_t(send_.messages[s].rank)];
    if (to == MPI_UNDEFINED || send_.messages[s].rank == shape_.rank || send_.messages[s].count == 0)
      continue;
    const CopyTable table = unflattened(received.data() + rdispls[std::size_t(to)], shape_.rank);
    joined_.emplace_back(to, joined_copy(send_, s, table, 0));
  }
  buffers_.set_other_nodes(outgoing_, incoming_);
  joined_done_ = true;
  // Used once: from here on the buffers and joined_ hold what a pass needs.
  send_ = recv_ = outgoing_ = incoming_ = CopyTable{};
}

void OnePass::place(const std::vector<char*>& at) {
  destinations_ = *std::min_element(at.begin(), at.end(), std::less<char*>());
  CopyTable from_source, into_destinations;
  const auto eb = std::ptrdiff_t(shape_.element_bytes);
  for (const auto& [r, own] : joined_) {
    const auto shift = index_t((at[std::size_t(r)] - destinations_) / eb);
    if (own.table_is_source)
      append_moved(from_source, own.table, 0, shift);
    else
      append_moved(into_destinations, own.table, shift, 0);
  }
  buffers_.set_joined(from_source, into_destinations);
}

}  // namespace distarray::detail
