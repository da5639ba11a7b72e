#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/own_message.hpp is internal: include <distarray/redist.hpp>"
#endif
// The message to oneself in one pass (issue 50, item 2): it goes from the
// source block to the destination block in one kernel, never through a send
// or receive buffer, on every engine.  Its send and receive messages list the
// same elements in the same order; joined, they make one copy table whose
// rows and runs are one side's (the table side) and whose "buffer" is the
// other block (the buffer side, read or written along runs in unit steps,
// or one element at a time where neither side has unit runs), so that the
// packers' kernels, the local transpose in cache tiles included, copy it.

#include <distarray/redist/detail/tables/copy_table.hpp>
#include <distarray/redist/detail/tables/encoded_messages.hpp>

namespace distarray::detail {

/// The message to oneself as one copy from source to destination.
struct OwnCopy {
  /// One message (none where a rank keeps nothing): rows and runs of the
  /// table side in its block; buffer places in the other block.
  CopyTable table;
  /// The table side is the source block (copy as a pack: source -> buffer
  /// side = destination), else the destination (as an unpack).
  bool table_is_source = true;
  index_t elements() const { return table.total; }
};

/// A step's tables with the message to oneself taken out of both sides
/// (and of the encoded headers, one per send message), and that message joined.
struct OwnSplit {
  CopyTable send, recv;
  EncodedMessages encoded;
  OwnCopy own;
};

/// Splits the message to `rank` (this rank) out of `send` and `recv`; where
/// messages are encoded (recv empty), its receive side is decoded from its header.
OwnSplit split_own_message(const CopyTable& send, const CopyTable& recv, const EncodedMessages& encoded,
                           int rank);

/// Send message `s` of `send` and receive message `r` of `recv` (the same
/// elements in the same order) as one copy.
OwnCopy joined_copy(const CopyTable& send, std::size_t s, const CopyTable& recv, std::size_t r);

}  // namespace distarray::detail
