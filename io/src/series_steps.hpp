#pragma once
// What the series writer and its readers share (series.cpp,
// series_reading.cpp): the steps a file holds, and warnings from rank 0.

#include <distarray/io/detail/hdf5_file.hpp>

#include <mpi.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace distarray::detail {

/// Prints "distarray: warning: <text>" on rank 0 of `comm`.
void warn(MPI_Comm comm, const std::string& text);

/// Group name and completeness of each step group of an open file, by step.
std::map<std::uint64_t, std::pair<std::string, bool>> steps_of(const Hdf5File& file);

}  // namespace distarray::detail
