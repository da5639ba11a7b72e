#pragma once
// OnePass: the shared engine's one pass (issue 52).  Where the destination
// block of every rank of a node lives in node-shared memory (a DistArray
// made node_shared: core/detail/node_memory.hpp), each rank writes every
// element it sends within the node straight from its source block into
// the receiver's destination block: one read and one write per element, no
// window between.  Each send message is joined with the receiver's table
// of it (sent once, at the first such execution) into one copy table, as
// the message to oneself is (own_message.hpp).
//
// Whether an execution goes in one pass is decided anew at each start,
// alike on the node's ranks, from what each posts in its slot of a small
// node-shared block: its destination's place (or that it has none).  A rank
// whose destination is not node-shared goes on at once (the two-pass path);
// the others wait for every peer's post of this execution, which also says
// that the peer has handed its destination block over.  The wait yields
// and drives MPI's progress: ranks oversubscribed on cores are not starved,
// and a peer still blocked on a message from this rank gets it.

#include "exchange.hpp"

#include <distarray/core/detail/node_memory.hpp>
#include <distarray/redist/detail/kernels/own_message.hpp>

#include <array>
#include <vector>

namespace distarray::detail {

class OnePass {
 public:
  /// Collective over `node` (the step's ranks on this node; `node_rank`:
  /// each step rank's number in it, MPI_UNDEFINED off it); `placed`: the
  /// shared engine's send table placed in its segments; `buffers` runs the
  /// one pass (PlacedBuffers::pass); `where`: the step's memory, which
  /// the destinations' node-shared blocks must be in.
  OnePass(const StepShape& shape, MPI_Comm node, const std::vector<int>& node_rank, const CopyTable& send,
          const CopyTable& recv, const CopyTable& placed, PlacedBuffers& buffers, NodeMemory::Where where);

  /// Whether this execution, into the destination block `out`, goes in one
  /// pass (the same answer on every rank of the node).  Call once per
  /// execution on every rank of the node, before any write into a peer and
  /// after the segments' hand_over (node_segments.hpp).
  bool ready(const void* out);
  /// The one pass of an execution ready() accepted: the local block `in`
  /// into the node's destination blocks, and the messages to other nodes
  /// into the engine's segments from `base` on, as placed.  Not fenced.
  void pass(const void* in, char* base) { buffers_.pass(in, destinations_, base); }

 private:
  /// What a rank posts at each start (the file's comment).
  struct Post {
    std::array<long long, 2> making;
    long long offset;  // of the destination in its node-shared block; -1: none
    long long process;
    bool operator==(const Post&) const = default;
  };
  void post(const Post& mine);
  Post read_post(int r) const;  // waits for node rank r's post of this execution
  /// The receivers' tables of this rank's messages within the node, joined
  /// with its own (collective over the node).
  void join();
  /// The one pass's tables for destination blocks at `at` (per node rank).
  void place(const std::vector<char*>& at);

  const StepShape& shape_;
  MPI_Comm node_;
  std::vector<int> node_rank_;
  CopyTable send_, recv_;  // (copies: the engine's are gone after planning; cleared by join())
  PlacedBuffers& buffers_;
  CopyTable outgoing_, incoming_;  // the messages to and from other nodes (PlacedBuffers::set_other_nodes)
  NodeMemory::Where where_;
  NodeMemory slots_;                             // one per node rank, in host memory: its posts
  long long execution_ = 0;                      // executions started
  std::vector<std::pair<int, OwnCopy>> joined_;  // per peer of the node (node rank)
  bool joined_done_ = false;
  std::vector<Post> placed_for_;  // the posts the current tables were placed for
  char* destinations_ = nullptr;  // the lowest destination block of the node
};

}  // namespace distarray::detail
