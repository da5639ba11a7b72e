// The shared engine (issue 52).  Each rank's receive buffer lives in memory
// every rank of its node maps (node_segments.hpp: POSIX shared memory for
// host arrays, the GPU's memory through CUDA IPC for device arrays, whose
// ranks all share one node), so that one base address and one table
// place every message a rank sends: the sender's pack kernel writes each
// message for a rank of its node straight into that rank's segment, and
// each message for another node into the outgoing part of its own segment,
// all in one launch.  No MPI call copies a message within a node: one
// MPI_Ibarrier on the node completes them (fences order the kernels'
// stores before it and the reads after it); messages between nodes go by
// MPI_Isend / MPI_Irecv from and into the segments.  Two windows (halves of
// each segment), used in turn: a sender may start execution n + 1 while a
// receiver still unpacks n, but not n + 2 before the receiver has started
// n + 1, which it does only after unpacking n.  On a device, where the
// kernels run on the step's stream after the host has moved on, the
// segments add the same order on the device (events between the ranks'
// streams, node_segments.hpp) and the host never waits for the device: a
// plan started on a stream stays ordered with the caller's kernels on it.

#include "exchange.hpp"
#include "node_segments.hpp"
#include "one_pass.hpp"

#include <distarray/core/detail/collective.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>

namespace distarray::detail {

namespace {

/// Windows used in turn (the file's comment says why two).
constexpr std::size_t windows = shared_windows;

/// A window of a segment: whole 64-byte lines (the kernels' streamed stores
/// and transposing squares need aligned lines), at least one.
std::size_t window_bytes(std::size_t bytes) { return std::max<std::size_t>(1, (bytes + 63) / 64) * 64; }

/// Elements of the messages to ranks on other nodes.
index_t outgoing_elements(const CopyTable& send, const std::vector<int>& node_rank) {
  index_t elements = 0;
  for (const auto& m : send.messages)
    if (node_rank[std::size_t(m.rank)] == MPI_UNDEFINED) elements += m.count;
  return elements;
}

class SharedExchange final : public Exchange {
 public:
  SharedExchange(const StepShape& shape, const CopyTable& send, const CopyTable& recv, StepHalf& buffers,
                 bool device_memory)
      : shape_(shape),
        node_(node_communicator(shape.comm)),
        me_(rank_of(node_)),
        device_memory_(device_memory),
        whole_step_on_node_(ranks_of(node_) == ranks_of(shape.comm)) {
    const std::vector<int> node_rank = node_ranks(shape.comm, node_);
    const auto eb = index_t(shape.element_bytes);
    const index_t outgoing = outgoing_elements(send, node_rank);
    // One window size on the node: a sender finds window w of every
    // receiver's segment at w times it.
    unsigned long long largest = window_bytes(std::size_t(recv.total + outgoing) * shape.element_bytes);
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, node_));
    window_ = std::size_t(largest);
    try {
      if (device_memory)
        segments_ = std::make_unique<DeviceSegments>(node_, windows * window_, shape.comm);
      else
        segments_ = std::make_unique<NodeSegments>(node_, windows * window_, shape.comm);
    } catch (...) {
      MPI_Comm_free(&node_);
      throw;
    }
    // Each message's place from the lowest segment, in elements (segments
    // are page-aligned: whole elements apart).
    const auto from_lowest = [&](int r) { return index_t(segments_->segment(r) - segments_->lowest()) / eb; };
    // Each receiver's place for the message from each sender (element
    // offsets in its receive table), sent to the senders.
    std::vector<long long> place(std::size_t(ranks_of(shape.comm)), -1), theirs(place.size(), -1);
    for (const auto& m : recv.messages) place[std::size_t(m.rank)] = m.offset;
    DISTARRAY_MPI_CHECK(
        MPI_Alltoall(place.data(), 1, MPI_LONG_LONG, theirs.data(), 1, MPI_LONG_LONG, shape.comm));
    CopyTable placed = send;
    index_t next = recv.total;  // the outgoing part of this rank's window
    bool unplaced = false;      // (receivers list every sender: never)
    for (auto& m : placed.messages) {
      const int to = node_rank[std::size_t(m.rank)];
      index_t at = 0;
      if (to == MPI_UNDEFINED) {
        to_other_nodes_.push_back({m.rank, next, m.count, 0, 0});
        at = from_lowest(me_) + next;
        next += m.count;
      } else {
        unplaced = unplaced || theirs[std::size_t(m.rank)] < 0;
        at = from_lowest(to) + theirs[std::size_t(m.rank)];
      }
      for (index_t r = m.rows_begin; r < m.rows_end; ++r)
        placed.rows[std::size_t(r)].buffer_base += at - m.offset;
      m.offset = at;
    }
    agree<Error>(shape.comm, unplaced, "shared exchange: a receiver's segment has no place for a message");
    for (const auto& m : recv.messages)
      if (node_rank[std::size_t(m.rank)] == MPI_UNDEFINED) from_other_nodes_.push_back(m);
    placed_ = &buffers.placed(placed);
    one_pass_ =
        std::make_unique<OnePass>(shape, node_, node_rank, send, recv, placed, *placed_,
                                  device_memory ? NodeMemory::Where::device : NodeMemory::Where::host);
  }
  SharedExchange(const SharedExchange&) = delete;
  SharedExchange& operator=(const SharedExchange&) = delete;
  ~SharedExchange() override {
    // Local: unmapping is no collective (node_segments.hpp says why that matters).
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&node_);
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    current_ = (current_ + 1) % windows;
    char* const mine = window(me_);
    segments_->hand_over(*placed_);  // (before ready() posts)
    one_pass_now_ = one_pass_->ready(blocks.out[0]);
    requests_.clear();
    for (const auto& m : from_other_nodes_)
      post_message(shape_, false, mine, m, shape_.payload_tag, requests_);
    t = add_seconds(report.exchange_seconds, t);
    segments_->before_pack(*placed_);
    if (one_pass_now_)
      one_pass_->pass(blocks.in[0], segments_->lowest() + current_ * window_);
    else
      placed_->pack(blocks.in[0], segments_->lowest() + current_ * window_);
    segments_->after_pack(*placed_);
    t = add_seconds(report.pack_seconds, t);
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the stores before the barrier
    for (const auto& m : to_other_nodes_) post_message(shape_, true, mine, m, shape_.payload_tag, requests_);
    if (blocks.agreement) {
      try {
        reduce_agreement(*blocks.agreement);  // the barrier
      } catch (...) {
        // Refused: what was packed is never read, and the windows stay as
        // on the ranks that refused (agree_only), one of which may still
        // have to unpack its previous execution from the current window.
        current_ = (current_ + windows - 1) % windows;
        throw;
      }
    } else {
      requests_.emplace_back();
      DISTARRAY_MPI_CHECK(MPI_Ibarrier(node_, &requests_.back()));
    }
    add_seconds(report.exchange_seconds, t);
  }
  /// On one node, in host memory: the barrier is a reduction of every
  /// rank of the step (a device's segments order kernels by events, which
  /// a rank that refuses would not record).
  bool carries_agreement() const override { return !device_memory_ && whole_step_on_node_; }
  void agree_only(Agreement& agreement) override {
    // The post for the one pass that every rank of the node makes at a
    // start (none: the ranks that started wait for it, and go in two passes).
    one_pass_->ready(nullptr);
    reduce_agreement(agreement);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    const bool done = complete_requests(requests_, false, report.exchange_seconds);
    if (done) unpack(blocks, report);
    return done;
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    complete_requests(requests_, true, report.exchange_seconds);
    unpack(blocks, report);
  }
  std::string name() const override { return "shared"; }

 private:
  /// The start's agreement reduced over the node (every rank of the step
  /// and of the agreement: carries_agreement), and concluded.
  void reduce_agreement(Agreement& agreement) { agreement.reduce_and_conclude(node_); }
  /// Node rank `r`'s part of the current window.
  char* window(int r) const { return segments_->segment(r) + current_ * window_; }
  void unpack(const Blocks& blocks, PlanReport& report) {
    const double t = MPI_Wtime();
    std::atomic_thread_fence(std::memory_order_seq_cst);  // the reads after the barrier
    segments_->before_unpack(*placed_);
    if (one_pass_now_)
      placed_->unpack_incoming(window(me_), blocks.out[0]);
    else
      placed_->unpack(window(me_), blocks.out[0]);
    segments_->after_unpack(*placed_);
    add_seconds(report.unpack_seconds, t);
  }

  const StepShape& shape_;
  MPI_Comm node_;                       // the step's ranks on this node, numbered alike
  int me_;                              // this rank's number in node_
  bool device_memory_;                  // the segments in a GPU's memory
  bool whole_step_on_node_;             // every rank of the step on this node
  std::unique_ptr<Segments> segments_;  // each rank's: `windows` windows of window_ bytes
  std::size_t window_ = 0;
  PlacedBuffers* placed_ = nullptr;
  std::unique_ptr<OnePass> one_pass_;
  bool one_pass_now_ = false;                         // the execution in progress goes in one pass
  std::vector<CopyTable::Message> to_other_nodes_;    // offsets in this rank's window
  std::vector<CopyTable::Message> from_other_nodes_;  // offsets in this rank's window
  std::vector<MPI_Request> requests_;                 // the receives, the sends, the node barrier
  std::size_t current_ = windows - 1;                 // the window of the execution in progress
};

}  // namespace

std::unique_ptr<Exchange> make_shared_exchange(const StepShape& shape, const CopyTable& send,
                                               const CopyTable& recv, StepHalf& buffers, bool device_memory) {
  return std::make_unique<SharedExchange>(shape, send, recv, buffers, device_memory);
}

std::size_t shared_window_bytes(const CopyTable& send, const CopyTable& recv, std::size_t element_bytes) {
  // Every send message counted as going to another node: an upper bound.
  return windows * window_bytes(std::size_t(recv.total + send.total) * element_bytes);
}

}  // namespace distarray::detail
