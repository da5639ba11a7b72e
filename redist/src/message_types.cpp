#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/message_types.hpp>

#include <algorithm>
#include <climits>

namespace distarray::detail {

MessageTypes::MessageTypes(const CopyTable& table, std::size_t element_bytes) {
  MPI_Datatype element;
  DISTARRAY_MPI_CHECK(MPI_Type_contiguous(int(element_bytes), MPI_BYTE, &element));
  std::vector<MPI_Datatype> run_types, block_types;
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  const auto bytes = [element_bytes](index_t elements) {
    return MPI_Aint(elements) * MPI_Aint(element_bytes);
  };
  const bool strided =
      std::any_of(table.runs.begin(), table.runs.end(), [](const CopyRun& r) { return r.stride != 1; });
  for (const auto& m : table.messages) {
    // The rows of a message share their runs: one type per run.
    const CopyRow& first = table.rows[std::size_t(m.rows_begin)];
    run_types.clear();
    for (index_t k = first.runs_begin; k < first.runs_end; ++k) {
      const CopyRun& run = table.runs[std::size_t(k)];
      if (run.length > INT_MAX) throw Error("datatype exchange: a run exceeds INT_MAX elements");
      run_types.push_back(element);
      if (run.stride != 1)
        DISTARRAY_MPI_CHECK(
            MPI_Type_create_hvector(int(run.length), 1, bytes(run.stride), element, &run_types.back()));
    }
    lengths.clear();
    displacements.clear();
    block_types.clear();
    for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
      const CopyRow& row = table.rows[std::size_t(r)];
      for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
        const CopyRun& run = table.runs[std::size_t(k)];
        lengths.push_back(run.stride == 1 ? int(run.length) : 1);
        displacements.push_back(bytes(row.local_base + run.start));
        block_types.push_back(run_types[std::size_t(k - row.runs_begin)]);
      }
    }
    if (lengths.size() > std::size_t(INT_MAX)) throw Error("datatype exchange: a message has too many runs");
    types_.emplace_back();
    if (strided)
      DISTARRAY_MPI_CHECK(MPI_Type_create_struct(int(lengths.size()), lengths.data(), displacements.data(),
                                                 block_types.data(), &types_.back()));
    else
      DISTARRAY_MPI_CHECK(MPI_Type_create_hindexed(int(lengths.size()), lengths.data(), displacements.data(),
                                                   element, &types_.back()));
    DISTARRAY_MPI_CHECK(MPI_Type_commit(&types_.back()));
    for (MPI_Datatype& t : run_types)
      if (t != element) DISTARRAY_MPI_CHECK(MPI_Type_free(&t));
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
