// The shared engine (issue 52, host memory): every rank of the step on one
// node.  Each rank's receive buffer lives in an MPI-3 shared window, one
// segment per rank, contiguous across ranks (MPI's default), so that one
// base address and one table place every message a rank sends: the sender's
// pack kernel writes each message straight into its receiver's segment, in
// one launch, and no MPI call copies it.  Completion is one
// MPI_Ibarrier on the node: after it, every message of this execution is in
// place (MPI_Win_sync orders the kernels' stores before it and the reads
// after it).  Two windows, used in turn: a sender may start execution n + 1
// while a receiver still unpacks n, but not n + 2 before the receiver has
// started n + 1, which it does only after unpacking n.

#include "exchange.hpp"

#include <distarray/core/detail/collective.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

namespace distarray::detail {

namespace {

/// Segment sizes in whole cache lines: every segment is as far from a line
/// boundary as rank 0's.
constexpr MPI_Aint segment_alignment = 64;

class SharedExchange final : public Exchange {
 public:
  SharedExchange(const StepShape& shape, const CopyTable& send, const CopyTable& recv, StepHalf& buffers) {
    DISTARRAY_MPI_CHECK(
        MPI_Comm_split_type(shape.comm, MPI_COMM_TYPE_SHARED, shape.rank, MPI_INFO_NULL, &node_));
    const MPI_Aint bytes = MPI_Aint(recv.total) * MPI_Aint(shape.element_bytes);
    // At least a line (a segment of no bytes may have no address to count
    // from), and a line more: Open MPI starts the window 8 bytes past a
    // line, and the kernels' streamed stores and transposing squares need
    // 16-byte lines, so every segment is used from its first line boundary.
    const MPI_Aint segment =
        (std::max<MPI_Aint>(1, (bytes + segment_alignment - 1) / segment_alignment) + 1) * segment_alignment;
    std::array<std::vector<MPI_Aint>, windows> offsets;  // per window: each rank's segment from rank 0's
    for (std::size_t w = 0; w < windows; ++w) {
      void* mine = nullptr;
      DISTARRAY_MPI_CHECK(MPI_Win_allocate_shared(segment, 1, MPI_INFO_NULL, node_, &mine, &window_[w]));
      DISTARRAY_MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_[w]));
      offsets[w] = segment_offsets(window_[w], base_[w]);
      // Segments are whole lines long: each is as far from a line boundary as rank 0's.
      const MPI_Aint past = MPI_Aint(reinterpret_cast<std::uintptr_t>(base_[w]) % segment_alignment);
      const MPI_Aint skew = (segment_alignment - past) % segment_alignment;
      base_[w] += skew;
      received_[w] = static_cast<char*>(mine) + skew;
    }
    // Each receiver's place for the message from each sender (element
    // offsets in its receive table), sent to the senders.
    const int size = int(offsets[0].size());
    std::vector<long long> place(std::size_t(size), -1), theirs(std::size_t(size), -1);
    for (const auto& m : recv.messages) place[std::size_t(m.rank)] = m.offset;
    DISTARRAY_MPI_CHECK(
        MPI_Alltoall(place.data(), 1, MPI_LONG_LONG, theirs.data(), 1, MPI_LONG_LONG, shape.comm));
    // The windows differ in base only: one placed table serves both.
    agree<Error>(shape.comm, offsets[0] != offsets[1],
                 "shared exchange: the two windows' segments are laid out differently");
    bool unplaced = false;  // (segments are whole lines apart, receivers list every sender: never)
    for (const auto& m : send.messages)
      unplaced = unplaced || offsets[0][std::size_t(m.rank)] % MPI_Aint(shape.element_bytes) != 0 ||
                 theirs[std::size_t(m.rank)] < 0;
    agree<Error>(shape.comm, unplaced, "shared exchange: a receiver's segment has no place for a message");
    CopyTable placed = send;
    for (auto& m : placed.messages) {
      const index_t at = index_t(offsets[0][std::size_t(m.rank)] / MPI_Aint(shape.element_bytes));
      const index_t moved = at + theirs[std::size_t(m.rank)] - m.offset;
      for (index_t r = m.rows_begin; r < m.rows_end; ++r) placed.rows[std::size_t(r)].buffer_base += moved;
      m.offset += moved;
    }
    placed_ = &buffers.placed(placed);
  }
  SharedExchange(const SharedExchange&) = delete;
  SharedExchange& operator=(const SharedExchange&) = delete;
  ~SharedExchange() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (MPI_Win& w : window_) {
      MPI_Win_unlock_all(w);
      MPI_Win_free(&w);
    }
    MPI_Comm_free(&node_);
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    current_ = (current_ + 1) % windows;
    placed_->pack(blocks.in[0], base_[current_]);
    t = add_seconds(report.pack_seconds, t);
    DISTARRAY_MPI_CHECK(MPI_Win_sync(window_[current_]));
    DISTARRAY_MPI_CHECK(MPI_Ibarrier(node_, &request_));
    add_seconds(report.exchange_seconds, t);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    const bool done = complete_request(request_, false, report.exchange_seconds);
    if (done) unpack(blocks, report);
    return done;
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    complete_request(request_, true, report.exchange_seconds);
    unpack(blocks, report);
  }
  std::string name() const override { return "shared"; }

 private:
  static constexpr std::size_t windows = 2;

  /// Each rank's segment of `window` from rank 0's (bytes); `base`: rank 0's.
  std::vector<MPI_Aint> segment_offsets(MPI_Win window, char*& base) const {
    int size = 0;
    MPI_Comm_size(node_, &size);
    std::vector<MPI_Aint> offsets;
    for (int r = 0; r < size; ++r) {
      MPI_Aint bytes = 0;
      int unit = 0;
      void* at = nullptr;
      DISTARRAY_MPI_CHECK(MPI_Win_shared_query(window, r, &bytes, &unit, &at));
      if (r == 0) base = static_cast<char*>(at);
      offsets.push_back(MPI_Aint(static_cast<char*>(at) - base));
    }
    return offsets;
  }
  void unpack(const Blocks& blocks, PlanReport& report) {
    const double t = MPI_Wtime();
    DISTARRAY_MPI_CHECK(MPI_Win_sync(window_[current_]));
    placed_->unpack(received_[current_], blocks.out[0]);
    add_seconds(report.unpack_seconds, t);
  }

  PlacedBuffers* placed_ = nullptr;
  MPI_Comm node_ = MPI_COMM_NULL;  // the step's ranks, numbered alike (all on one node)
  std::array<MPI_Win, windows> window_{MPI_WIN_NULL, MPI_WIN_NULL};
  std::array<char*, windows> base_{};      // rank 0's segment: where the placed table counts from
  std::array<char*, windows> received_{};  // this rank's segment
  std::size_t current_ = windows - 1;      // the window of the execution in progress
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<Exchange> make_shared_exchange(const StepShape& shape, const CopyTable& send,
                                               const CopyTable& recv, StepHalf& buffers) {
  return std::make_unique<SharedExchange>(shape, send, recv, buffers);
}

}  // namespace distarray::detail
