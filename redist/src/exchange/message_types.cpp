#include "message_types.hpp"
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include "detail/periodic_type.hpp"

#include <climits>

namespace distarray::detail {

MessageTypes::MessageTypes(const CopyTable& table, std::size_t element_bytes) {
  MPI_Datatype element;
  DISTARRAY_MPI_CHECK(MPI_Type_contiguous(int(element_bytes), MPI_BYTE, &element));
  TypeCache cache;  // freed at the end: MPI keeps what the committed types use
  const auto bytes = [element_bytes](index_t elements) {
    return MPI_Aint(elements) * MPI_Aint(element_bytes);
  };
  std::vector<TypedBlock> blocks;
  for (const auto& m : table.messages) {
    // The rows of a message share their runs: one row type, placed at each row's base.
    const CopyRow& first = table.rows[std::size_t(m.rows_begin)];
    blocks.clear();
    for (index_t k = first.runs_begin; k < first.runs_end; ++k) {
      const CopyRun& run = table.runs[std::size_t(k)];
      if (run.length > INT_MAX) throw Error("datatype exchange: a run exceeds INT_MAX elements");
      blocks.push_back({bytes(run.start), cache.hvector(int(run.length), bytes(run.stride), element)});
    }
    const MPI_Datatype row = cache.sequence(blocks);
    blocks.clear();
    for (index_t r = m.rows_begin; r < m.rows_end; ++r)
      blocks.push_back({bytes(table.rows[std::size_t(r)].local_base), row});
    types_.emplace_back();
    DISTARRAY_MPI_CHECK(MPI_Type_dup(cache.sequence(blocks), &types_.back()));
    DISTARRAY_MPI_CHECK(MPI_Type_commit(&types_.back()));
  }
  DISTARRAY_MPI_CHECK(MPI_Type_free(&element));
}

MessageTypes& MessageTypes::operator=(MessageTypes&& other) noexcept {
  if (this != &other) {
    release();
    types_ = std::move(other.types_);
    other.types_.clear();
  }
  return *this;
}

void MessageTypes::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    for (MPI_Datatype& t : types_) MPI_Type_free(&t);
  types_.clear();
}

}  // namespace distarray::detail
