#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/series/series_reading.hpp is internal: include <distarray/io.hpp>"
#endif
// Reading a series without writing to it (io/src/series/series_reading.cpp): what
// restore_step (series.hpp) opens and which step it takes.

#include <distarray/core/error.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace distarray::detail {

/// Opens a series to read, never writing: CheckpointError while a writer is
/// inside a step; a warning (rank 0) for a step a stopped writer left
/// unfinished or a journal that is not the file's, and then `advice` says how
/// to roll that step back (empty otherwise).  Collective.
Hdf5File open_series_for_reading(const std::string& path, MPI_Comm comm, std::string& advice);

/// read(file) on a series opened with open_series_for_reading.  A writer
/// killed inside a step can leave the file's metadata half written, so that
/// listing or reading it fails: a CheckpointError from read then also says
/// how to roll the step back, as the file cannot be read as it is.
template <class F>
decltype(auto) read_series(const std::string& path, MPI_Comm comm, F&& read) {
  std::string advice;
  const Hdf5File file = open_series_for_reading(path, comm, advice);
  try {
    return read(file);
  } catch (const CheckpointError& e) {
    if (advice.empty()) throw;
    throw CheckpointError(e.what() + advice);
  }
}
/// The group of step `step` of an open series, or of its latest complete
/// step that holds array `name`; CheckpointError when absent, incomplete or
/// damaged.  Warns (rank 0) of the later steps passed over.
std::string choose_step(const Hdf5File& file, std::optional<std::uint64_t> step, const std::string& name,
                        std::uint64_t& chosen);

}  // namespace distarray::detail
