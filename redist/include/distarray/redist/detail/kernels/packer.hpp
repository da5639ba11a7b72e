#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/packer.hpp is internal: include <distarray/redist.hpp>"
#endif
// Packer: one side of an exchange (a CopyTable) on the execution space, with
// the kernel policy its runs need — copy_runs for contiguous runs and spaced
// single elements (over run chunks, so that one long row still uses every
// thread), copy_tiles for a local transpose; on host backends their host
// specialisations (host_copy_kernels.hpp).  Any range of
// consecutive messages is one kernel launch: a whole side per step, or one
// wave of messages where the engine unpacks on arrival (message_waves.hpp).

#include <distarray/redist/detail/kernels/copy_kernels.hpp>
#include <distarray/redist/detail/kernels/host_copy_kernels.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace distarray::detail {

/// `items` in a new view of `Space`.
template <class Item, class Space>
Kokkos::View<Item*, Space> to_space(const char* label, const std::vector<Item>& items) {
  Kokkos::View<Item*, Space> v(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing),
                               items.size());
  auto host = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < items.size(); ++i) host(i) = items[i];
  Kokkos::deep_copy(v, host);
  return v;
}

/// The work items of every message of `table` (items_of(i) for message i),
/// in one view of `Space`; first[i] is message i's first item, first.back() their count.
template <class Item, class Space, class F>
Kokkos::View<Item*, Space> per_message(const char* label, const CopyTable& table, std::vector<index_t>& first,
                                       F&& items_of) {
  std::vector<Item> items;
  first.assign(1, 0);
  for (std::size_t i = 0; i < table.messages.size(); ++i) {
    const std::vector<Item> some = items_of(i);
    items.insert(items.end(), some.begin(), some.end());
    first.push_back(index_t(items.size()));
  }
  return to_space<Item, Space>(label, items);
}

/// Who reads next what a Packer's pack writes: other ranks (messages), or
/// this rank (the message to oneself, or a destination block): it decides
/// from which size a host launch streams (host_copy_kernels.hpp).
enum class PackedFor { other_ranks, this_rank };

template <class T, class Space>
class Packer {
 public:
  using execution_space = typename Space::execution_space;

  Packer() = default;
  explicit Packer(const CopyTable& table, PackedFor packed_for = PackedFor::other_ranks)
      : messages_(table.messages),
        packed_for_(packed_for),
        tiled_(table.strided),
        rows_(to_space<CopyRow, Space>("distarray::copy_rows", table.rows)),
        runs_(to_space<CopyRun, Space>("distarray::copy_runs", table.runs)),
        lanes_(item_lanes(table.mean_run_length())),
        long_runs_(table.mean_run_length() * sizeof(T) >= 2 * 64) {
    chunks_ = per_message<RunChunk, Space>("distarray::run_chunks", table, first_chunk_,
                                           [&](std::size_t i) { return table.run_chunks(i, i + 1); });
    if (on_host && !tiled_ && table.messages.size() > 1)
      chunks_in_local_order_ = to_space<RunChunk, Space>("distarray::run_chunks_in_local_order",
                                                         table.run_chunks_in_local_order());
    // A GPU team holds a tile; a host thread a block it sweeps in strips (host_copy_kernels.hpp).
    const index_t rows = on_host ? host_task_rows : copy_tile;
    const index_t elements = on_host && tiled_ ? host_task_elements(table) : copy_block;
    if (tiled_)
      tasks_ = per_message<TileTask, Space>("distarray::tile_tasks", table, first_task_, [&](std::size_t i) {
        return table.tile_tasks(i, i + 1, rows, elements);
      });
  }

  const std::vector<CopyTable::Message>& messages() const { return messages_; }
  /// Elements of the buffer this side fills or reads (its messages, one after another).
  index_t total() const { return messages_.empty() ? 0 : messages_.back().offset + messages_.back().count; }

  /// This side for array j of a batch of k, in a buffer where each
  /// message holds the k arrays' pieces one after another (message m at
  /// k * offset, array j's piece j * count into it): the same runs and
  /// tiles, rows moved.  Built once per batch size, on the host.
  Packer batched(index_t k, index_t j) const {
    Packer p = *this;
    auto rows = Kokkos::create_mirror(rows_);  // a copy even where rows_ is on the host
    Kokkos::deep_copy(rows, rows_);
    for (CopyTable::Message& m : p.messages_) {
      const index_t shift = (k - 1) * m.offset + j * m.count;
      for (index_t r = m.rows_begin; r < m.rows_end; ++r) rows(r).buffer_base += shift;
      m.offset += shift;
    }
    p.rows_ = Kokkos::View<CopyRow*, Space>(
        Kokkos::view_alloc(std::string("distarray::batch_rows"), Kokkos::WithoutInitializing),
        rows_.extent(0));
    Kokkos::deep_copy(p.rows_, rows);
    return p;
  }

  /// Copies messages [first, last) through `op` (element_op.hpp): pack (local
  /// -> buffer) or unpack, on the instance `exec`.  Returns the number of
  /// kernel launches (0 for no element, else 1); not fenced.
  template <class Op = PlainCopy<T>>
  int copy(std::size_t first, std::size_t last, T* local, T* buffer, bool pack, Op op = {},
           const execution_space& exec = execution_space()) const {
    if (first >= last) return 0;
    const index_t begin = messages_[first].rows_begin, end = messages_[last - 1].rows_end;
    if (begin >= end) return 0;
    if constexpr (on_host) {
      index_t elements = 0;  // (a batch's messages are spaced out in its buffer: counted, not spanned)
      for (std::size_t m = first; m < last; ++m) elements += messages_[m].count;
      const std::size_t bytes = std::size_t(elements) * sizeof(T);
      const bool stream =
          bytes >=
          (pack && (tiled_ || packed_for_ == PackedFor::other_ranks) ? pack_stream_bytes : stream_bytes);
      const bool on_caller = bytes < on_caller_bytes;
      if (tiled_) {
        copy_tiles_host(rows_, runs_, tasks_, first_task_[first], first_task_[last], local, buffer, pack, op,
                        HostLaunch{stream, on_caller}, exec);
        return 1;
      }
      const bool whole_side = first == 0 && last == messages_.size() && chunks_in_local_order_.extent(0) > 0;
      if (whole_side || long_runs_ || !stream) {
        const HostLaunch launch{stream && long_runs_, on_caller};
        if (whole_side)
          copy_runs_host(rows_, runs_, chunks_in_local_order_, 0, first_chunk_.back(), local, buffer, pack,
                         op, launch, exec);
        else
          copy_runs_host(rows_, runs_, chunks_, first_chunk_[first], first_chunk_[last], local, buffer, pack,
                         op, launch, exec);
        return 1;
      }
    }
    if (tiled_)
      copy_tiles(rows_, runs_, tasks_, first_task_[first], first_task_[last], local, buffer, pack, op, exec);
    else
      copy_runs(rows_, runs_, chunks_, first_chunk_[first], first_chunk_[last], local, buffer, pack, op,
                lanes_, exec);
    return 1;
  }
  template <class Op = PlainCopy<T>>
  int copy_all(T* local, T* buffer, bool pack, Op op = {},
               const execution_space& exec = execution_space()) const {
    return copy(0, messages_.size(), local, buffer, pack, op, exec);
  }
  /// Every local element of the table becomes beta times itself (0 for beta
  /// = 0, unread); one launch, not fenced.
  void scale_all(T* local, T beta, const execution_space& exec = execution_space()) const {
    scale_runs(rows_, runs_, chunks_, 0, first_chunk_.back(), local, beta, lanes_, exec);
  }

 private:
  static constexpr bool on_host = Kokkos::SpaceAccessibility<execution_space, Kokkos::HostSpace>::accessible;
  /// Run elements per host tile task: copy_block, or fewer where that
  /// leaves a thread fewer than four tasks of the table (long strips matter
  /// less than every thread having work).
  static index_t host_task_elements(const CopyTable& table) {
    const std::size_t wanted = 4 * std::size_t(execution_space().concurrency());
    index_t elements = copy_block;
    while (elements > 4 * square_side<T> &&
           table.tile_tasks(0, table.messages.size(), host_task_rows, elements).size() < wanted)
      elements /= 2;
    return elements;
  }
  std::vector<CopyTable::Message> messages_;
  PackedFor packed_for_ = PackedFor::other_ranks;
  bool tiled_ = false;
  Kokkos::View<CopyRow*, Space> rows_;
  Kokkos::View<CopyRun*, Space> runs_;
  int lanes_ = 1;  // vector lanes per run chunk (item_launch.hpp)
  // Runs long enough for streamed stores to pay on a host: two cache lines
  // (bench_pack_kernels' 16-element runs: f64 and c128 unpacks 2x faster
  // streamed, f32's single lines slower).  Launches that do not stream, and
  // whole sides in the local block's order, take copy_runs_host whatever
  // their runs (with plain stores where the runs are shorter).
  bool long_runs_ = false;
  Kokkos::View<RunChunk*, Space> chunks_;
  std::vector<index_t> first_chunk_;  // message -> its first run chunk
  // The same chunks in the order of the local block (host, several
  // messages): a whole side's pack reads its block sequentially and its
  // unpack writes it sequentially, which ran at twice the speed of a
  // message at a time here (4 messages of 8 KiB runs per row: the hardware
  // prefetcher restarts at each run); 16-element unpacks gained up to 1.2x,
  // and 4x for f32 in cache at 2 threads (docs/performance.md).
  Kokkos::View<RunChunk*, Space> chunks_in_local_order_;
  Kokkos::View<TileTask*, Space> tasks_;
  std::vector<index_t> first_task_;  // message -> its first tile task (tiled only)
};

}  // namespace distarray::detail
