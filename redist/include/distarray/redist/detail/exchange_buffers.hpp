#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exchange_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// What an exchange engine sees of a step's typed half (StepBuffers<T, Space>,
// step_buffers.hpp): a small core every engine uses — packing, the buffers
// MPI reads and writes, unpacking — and two extensions, reached through it,
// for the engines that need them: k arrays in one exchange (BatchBuffers)
// and encoded messages (DecodeBuffers).  Engines see bytes and messages
// only, so they are compiled once (redist/src/exchange/), not per element
// type and memory space.  Every pack and unpack is fenced before it returns.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/encoded_messages.hpp>

#include <span>
#include <vector>

namespace distarray::detail {

/// What the packs and unpacks since the last reset cost.
struct ExchangeCounters {
  int pack_launches = 0, unpack_launches = 0;  ///< kernel launches
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
  /// in[j] into the k-fold send buffer, then staged: one launch per array.
  virtual void pack(std::span<const void* const> in) = 0;
  /// The k-fold buffers as MPI reads and writes them.
  virtual char* send_bytes() = 0;
  virtual char* recv_bytes() = 0;
  /// Every received message into out[j], the one to oneself from the send buffer.
  virtual void unpack(std::span<void* const> out) = 0;
};

/// Encoded messages: receive tables decoded from headers, per source.
class DecodeBuffers {
 public:
  virtual ~DecodeBuffers() = default;
  /// A receive buffer of `elements` (it grows to the largest message, then
  /// stays) as MPI writes it.
  virtual char* scratch_bytes(index_t elements) = 0;
  /// The table of the message from `source` that `decode` builds out of
  /// `header`, kept per source and rebuilt only when the header changes;
  /// returns its element count.
  virtual index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) = 0;
  /// Unpacks the message from `source` as its decoded table says, from the
  /// scratch buffer or, for the message to oneself, from the send buffer at
  /// element `send_offset` (else negative).
  virtual void unpack_decoded(int source, void* out, index_t send_offset) = 0;
};

class ExchangeBuffers {
 public:
  virtual ~ExchangeBuffers() = default;

  /// The local block `in` into the send buffer in one kernel launch, then
  /// staged to where MPI reads it.
  virtual void pack(const void* in) = 0;
  /// The same without staging: the engine stages each message itself
  /// (stage_message), so that p2p copies one out while the one before is on its way.
  virtual void pack_unstaged(const void* in) = 0;
  /// Send message i of a buffer packed unstaged, staged (nothing where
  /// buffers are not staged).
  virtual void stage_message(std::size_t i) = 0;
  /// The send and receive buffers as MPI reads and writes them (their host
  /// copies when the buffers are staged).
  virtual char* send_bytes() = 0;
  virtual char* recv_bytes() = 0;
  /// Every received message into `out` in one kernel launch; the message to
  /// oneself from the send buffer (`self_from_send`) or from the receive
  /// buffer (when MPI moved it too).
  virtual void unpack(void* out, bool self_from_send) = 0;
  /// Received message i alone (unpacking on arrival).
  virtual void unpack_message(std::size_t i, void* out) = 0;
  /// The message to oneself, straight from the send buffer.
  virtual void unpack_self(void* out) = 0;
  /// Frees the buffer of each side the engine moves in place.
  virtual void release(bool send, bool recv) = 0;

  /// The batch extension, ready for k arrays (its buffers only grow).
  /// Allocates: call it agreed.
  virtual BatchBuffers& batch(int k) = 0;
  /// The decode extension (built on first use).
  virtual DecodeBuffers& decoded() = 0;

  /// The execution-space instance the packs and unpacks that follow run on
  /// (a pointer to the space's execution_space), or null for the default.
  virtual void use_instance(const void* exec) = 0;
  /// The element op of the packs and unpacks that follow: a ScaledCopy<T>
  /// of the step's element type (element_op.hpp), or null for a plain copy.
  /// Engines that move a side in place (datatypes) copy plainly there.
  virtual void set_element_op(const void* scaled_copy) = 0;

  ExchangeCounters counters;
};

}  // namespace distarray::detail
