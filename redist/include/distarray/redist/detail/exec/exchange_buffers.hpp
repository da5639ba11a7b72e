#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/exchange_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// What the exchange engines see of a step's typed half (StepBuffers<T, Space>,
// step_buffers.hpp), each engine given only what it uses: the core
// (ExchangeBuffers: packing, the buffers MPI reads and writes, unpacking),
// messages a range at a time (MessageBuffers, p2p), k arrays in one exchange
// (BatchBuffers, the batched exchange), encoded messages (DecodeBuffers) and
// messages packed straight into other ranks' memory (PlacedBuffers, shared).
// The step itself sees StepHalf, which holds them all.  Engines see bytes
// and messages only, so they are compiled once (redist/src/exchange/), not
// per element type and memory space; where kernels run and with which
// element op the typed owner sets on StepBuffers itself (executor.hpp).
// Every pack and unpack is fenced before it returns (MPI reads and writes
// the buffers), but the placed ones, which their engine orders itself (on a
// device through events on the step's stream: shared.cpp) and the message
// to oneself, which only the step's own kernels touch.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/tables/encoded_messages.hpp>

#include <span>
#include <vector>

namespace distarray::detail {

/// What the packs and unpacks since the last reset cost.
struct ExchangeCounters {
  int pack_launches = 0, unpack_launches = 0, own_launches = 0;  ///< kernel launches
  /// Seconds copying staged buffers out to MPI (inside the packs' time) and
  /// in from MPI (inside the unpacks').
  double staging_out_seconds = 0, staging_in_seconds = 0;
};

/// k arrays in one exchange: message m of the k-fold buffers holds the k
/// arrays' pieces one after another (at k times its offset), so that one
/// message per peer carries all k.
class BatchBuffers {
 public:
  virtual ~BatchBuffers() = default;
  /// Ready for k arrays: a packer per array, buffers grown to k-fold.  Allocates.
  virtual void prepare(int k) = 0;
  /// in[j] into the k-fold send buffer, then staged: one launch per array.
  virtual void pack(std::span<const void* const> in) = 0;
  /// The k-fold buffers as MPI reads and writes them.
  virtual char* send_bytes() = 0;
  virtual char* recv_bytes() = 0;
  /// Every received message into out[j], the one to oneself from the send buffer.
  virtual void unpack(std::span<void* const> out) = 0;
};

/// Encoded messages: receive tables decoded from headers, per source, and
/// gathered into one table so that the received messages unpack in waves.
class DecodeBuffers {
 public:
  virtual ~DecodeBuffers() = default;
  /// The table of the message from `source` that `decode` builds out of
  /// `header`, kept per source and rebuilt only when the header changes;
  /// returns its element count.
  virtual index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) = 0;
  /// The decoded messages from `sources`, one after another in that order:
  /// the receive buffer MPI writes them into.  Their joint table is rebuilt
  /// (and the buffer grown) only when a header changed; `sources` are the
  /// same in every call.
  virtual char* gather(std::span<const int> sources) = 0;
  /// True until the first gather, and when a header decoded since the last
  /// one differed from the header before it: the joint table is out of date.
  virtual bool changed() const = 0;
  /// Gathered messages [first, last) into `out` in one launch.
  virtual void unpack_gathered(std::size_t first, std::size_t last, void* out) = 0;
};

/// Messages packed straight into the receivers' buffers, which other ranks
/// of the node map into this one's memory (the shared engine's window).
class PlacedBuffers {
 public:
  virtual ~PlacedBuffers() = default;
  // One pass (redist/src/exchange/one_pass.hpp): each element straight
  // from the source block into its destination block on a rank of the
  // node, all of which this process maps.
  /// The messages to other nodes, placed as the placed table, and those from
  /// other nodes as in this rank's window: set once.
  virtual void set_other_nodes(const CopyTable& outgoing, const CopyTable& incoming) = 0;
  /// The joined tables (own_message.hpp) of the messages within the node,
  /// whose destination side is placed from the lowest destination block:
  /// `from_source`'s table side is the source block, `into_destinations`'
  /// the destination blocks.  Set again when the destination blocks move.
  virtual void set_joined(const CopyTable& from_source, const CopyTable& into_destinations) = 0;
  /// The local block `in` straight into the destination blocks from
  /// `destinations` on, and the messages to other nodes into `base` as
  /// placed.  Not fenced.
  virtual void pass(const void* in, char* destinations, char* base) = 0;
  /// The messages from other nodes, from `received` into `out`.  Not fenced.
  virtual void unpack_incoming(const char* received, void* out) = 0;
  /// The local block `in` into `base`: each send message where the placed
  /// table (StepHalf::placed) puts it.  One launch, not fenced.
  virtual void pack(const void* in, char* base) = 0;
  /// Every received message, laid out as the receive table says from
  /// `received` on, into `out`.  One launch, not fenced.
  virtual void unpack(const char* received, void* out) = 0;
  /// Waits until the step's instance has run what was launched on it.
  virtual void fence() = 0;
  /// The step's stream (a cudaStream_t or hipStream_t) where its kernels
  /// run on a CUDA or HIP device, else null.
  virtual void* device_stream() = 0;
};

/// The core every engine may be given.
class ExchangeBuffers {
 public:
  virtual ~ExchangeBuffers() = default;
  /// The local block `in` into the send buffer in one kernel launch, then
  /// staged to where MPI reads it.
  virtual void pack(const void* in) = 0;
  /// The send and receive buffers as MPI reads and writes them (their host
  /// copies when the buffers are staged).
  virtual char* send_bytes() = 0;
  virtual char* recv_bytes() = 0;
  /// Every received message into `out` in one kernel launch.
  virtual void unpack(void* out) = 0;
  /// Holds the buffer of each side where true (allocating it again if it
  /// was freed) and frees it where false: the automatic engine frees those
  /// of the sides its choice moves in place, and takes them back to measure again.
  virtual void hold_buffers(bool send, bool recv) = 0;
};

/// Messages a range at a time, for an engine that moves some while others
/// are on their way (p2p).
class MessageBuffers {
 public:
  virtual ~MessageBuffers() = default;
  /// The local block into the send buffer without staging it.
  virtual void pack_unstaged(const void* in) = 0;
  /// Send messages [first, last) of a buffer packed unstaged, staged
  /// (nothing where buffers are not staged).
  virtual void stage_messages(std::size_t first, std::size_t last) = 0;
  /// Received messages [first, last) into `out` in one kernel launch.
  virtual void unpack_messages(std::size_t first, std::size_t last, void* out) = 0;
};

/// The typed half as its step holds it: what it gives its engines, the
/// message to oneself, and what the packs and unpacks cost.
class StepHalf : public ExchangeBuffers, public MessageBuffers {
 public:
  /// The message to oneself straight from in[j] into out[j] for each of the
  /// k arrays, one launch each on the step's instance, not fenced (no MPI
  /// call reads or writes either array); in no engine's buffers or messages.
  virtual void copy_own(std::span<const void* const> in, std::span<void* const> out) = 0;
  /// The batch extension, ready for k arrays (its buffers only grow).
  /// Allocates: call it agreed.
  virtual BatchBuffers& batch(int k) = 0;
  /// The decode extension (built on first use).
  virtual DecodeBuffers& decoded() = 0;
  /// The placed extension: the send table again with each message's buffer
  /// places moved to `placed`'s (the same messages, rows and runs).  Built
  /// once: allocates.
  virtual PlacedBuffers& placed(const CopyTable& placed) = 0;

  ExchangeCounters counters;
};

}  // namespace distarray::detail
