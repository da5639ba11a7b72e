#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/tables/encoded_messages.hpp is internal: include <distarray/redist.hpp>"
#endif
// Hsu and Chung's encoded messages (ICPP'97, message_encoding.hpp): each
// message a sender posts starts with a header of the receiver's unpacking
// runs, from which the receiver rebuilds its receive table without
// computing a schedule.  A plan's logic produces them per step; the encoded
// exchange engine sends and decodes them.

#include <distarray/core/types.hpp>
#include <distarray/redist/detail/tables/copy_table.hpp>

#include <functional>
#include <vector>

namespace distarray::detail {

/// Builds the receive table of the message from `source` out of its header.
using Decoder = std::function<CopyTable(int source, const std::vector<index_t>& header)>;

/// One step's headers, one per send message, and how a receiver decodes them.
struct EncodedMessages {
  std::vector<std::vector<index_t>> headers;
  Decoder decode;
};

}  // namespace distarray::detail
