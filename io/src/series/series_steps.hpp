#pragma once
// What the series writer and its readers share (series.cpp,
// series_reading.cpp): the steps a file holds, and warnings from rank 0.

#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace distarray::detail {

/// The root attribute that makes a file a series (Series creates it).
inline constexpr const char* series_attribute = "distarray_series";

/// Whether the open `file` has series_attribute at its root.
bool has_series_attribute(const Hdf5File& file);

/// Whether `path` is a series file, as rank 0 of `comm` reads it (every rank
/// gets its answer); false where no regular file is there or it cannot be
/// read as HDF5.  Collective.
bool is_series_file(const std::string& path, MPI_Comm comm);

/// Prints "distarray: warning: <text>" on rank 0 of `comm`.
void warn(MPI_Comm comm, const std::string& text);

/// A step group of a series file as it is.
struct StepEntry {
  std::string group;  ///< "step_<n>"
  bool complete = false;
  std::string damage;  ///< why it is not a step (its header does not match its name), or empty
};

/// Every group of an open file named `step_<n>` or holding a distarray_step
/// attribute, by step number (the name's, else the attribute's).  Collective.
std::map<std::uint64_t, StepEntry> steps_of(const Hdf5File& file);

}  // namespace distarray::detail
