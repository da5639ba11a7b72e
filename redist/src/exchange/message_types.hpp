#pragma once
// MessageTypes: one committed MPI datatype per message of a CopyTable,
// describing where its elements lie in the local block, so that MPI moves
// them in place (the datatype engine: no user-space packing).  Owns and
// frees the types.

#include <distarray/redist/detail/tables/copy_table.hpp>

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace distarray::detail {

class MessageTypes {
 public:
  MessageTypes() = default;
  /// Runs become blocks of `element_bytes`-byte elements at their byte
  /// offsets (strided runs as hvectors), rows copies of their runs' type,
  /// periodic stretches of either folded into hvectors (periodic_type.hpp).
  MessageTypes(const CopyTable& table, std::size_t element_bytes);
  MessageTypes(MessageTypes&& other) noexcept : types_(std::move(other.types_)) { other.types_.clear(); }
  MessageTypes& operator=(MessageTypes&& other) noexcept;
  MessageTypes(const MessageTypes&) = delete;
  MessageTypes& operator=(const MessageTypes&) = delete;
  ~MessageTypes() { release(); }

  /// The type of message i of the table.
  MPI_Datatype operator[](std::size_t i) const { return types_[i]; }
  bool empty() const { return types_.empty(); }

 private:
  void release() noexcept;
  std::vector<MPI_Datatype> types_;
};

}  // namespace distarray::detail
