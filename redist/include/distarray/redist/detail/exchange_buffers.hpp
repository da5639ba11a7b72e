#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exchange_buffers.hpp is internal: include <distarray/redist.hpp>"
#endif
// ExchangeBuffers: what an exchange engine needs of a step's typed half
// (StepBuffers<T, Space>): packing, buffers that MPI reads and writes, and
// unpacking.  Engines see bytes and messages only, so they are compiled once
// (redist/src/exchange/), not per element type and memory space.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/copy_table.hpp>

#include <functional>
#include <vector>

namespace distarray::detail {

/// Builds the receive table of an encoded message from `source` out of its header.
using Decoder = std::function<CopyTable(int source, const std::vector<index_t>& header)>;

/// The encoded engine's messages: per send message the receiver's unpacking
/// runs, and how a receiver rebuilds its table from them.
struct Encoding {
  std::vector<std::vector<index_t>> headers;
  Decoder decode;
};

class ExchangeBuffers {
 public:
  virtual ~ExchangeBuffers() = default;

  /// The local block `in` into the send buffer in one kernel launch, fenced,
  /// then staged to where MPI reads it unless `stage` is false.
  virtual void pack(const void* in, bool stage = true) = 0;
  /// Send message i's part of a buffer packed with `stage` false, staged to
  /// where MPI reads it (nothing where buffers are not staged), fenced: the
  /// p2p engine copies each message out while the one before is on its way.
  virtual void stage_message(std::size_t i) = 0;
  /// The packed send buffer and the receive buffer as MPI reads and writes
  /// them (their host mirrors when the buffers are staged).
  virtual char* send_bytes() = 0;
  virtual char* recv_bytes() = 0;
  /// Every received message into `out` in one kernel launch, fenced; the
  /// message to oneself from the send buffer (`self_from_send`) or from the
  /// receive buffer (when MPI moved it too).
  virtual void unpack(void* out, bool self_from_send) = 0;
  /// Received message i alone (unpacking on arrival), fenced.
  virtual void unpack_message(std::size_t i, void* out) = 0;
  /// The message to oneself, straight from the send buffer, fenced.
  virtual void unpack_self(void* out) = 0;

  /// Batched executions of k arrays: the packers and k-fold buffers for
  /// them (the buffers only grow).  Allocates: call it agreed.
  virtual void prepare_batch(int k) = 0;
  /// Array j packed into the k-fold send buffer, where message m holds the
  /// k arrays' pieces one after another (at k times its offset), so that
  /// one message per peer carries all k.  One launch per array, fenced.
  virtual void pack_batch(const void* const* in, int k) = 0;
  /// The k-fold send (`send`) or receive buffer as MPI reads and writes it.
  virtual char* batch_bytes(bool send) = 0;
  /// Every received message into out[j], the one to oneself from the send
  /// buffer; fenced.
  virtual void unpack_batch(void* const* out, int k) = 0;

  /// Encoded messages: a receive buffer of `elements` (it grows to the
  /// largest message, then stays) as MPI writes it.
  virtual char* scratch_bytes(index_t elements) = 0;
  /// The table of the message from `source` that `decode` builds out of
  /// `header`, kept per source and rebuilt only when the header changes;
  /// returns its element count.
  virtual index_t decode(int source, const std::vector<index_t>& header, const Decoder& decode) = 0;
  /// Unpacks the message from `source` as its decoded table says, from the
  /// scratch buffer or, for the message to oneself, from the send buffer at
  /// element `send_offset` (else negative); fenced.
  virtual void unpack_decoded(int source, void* out, index_t send_offset) = 0;

  /// The execution-space instance the packs and unpacks that follow run on
  /// (a pointer to the space's execution_space), or null for the default;
  /// each is fenced on it before MPI sees its buffers.
  virtual void use_instance(const void* exec) = 0;

  /// The element op of the packs and unpacks that follow: a ScaledCopy<T>
  /// of the step's element type (element_op.hpp), or null for a plain copy.
  /// Engines that move a side in place (datatypes) copy plainly there.
  virtual void set_element_op(const void* scaled_copy) = 0;

  /// Frees the buffer of each side the engine moves in place.
  virtual void release(bool send, bool recv) = 0;

  /// Kernel launches since the counters were last reset.
  int pack_launches = 0, unpack_launches = 0;
  /// Seconds copying staged buffers since the counters were last reset: out
  /// to MPI (inside the pack's time) and in from MPI (inside the unpacks').
  double staging_out_seconds = 0, staging_in_seconds = 0;
};

}  // namespace distarray::detail
