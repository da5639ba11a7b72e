#pragma once
// What distarray save and restore share (save_command.cpp,
// restore_command.cpp): the element type and dimension dispatch, the
// checkpoint-or-series choice of their options, and the timing line.

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <distarray/support/options.hpp>

#include <mpi.h>

#include <string>
#include <vector>

namespace distarray::cli {

template <class T, int D>
Index<D> extents_of(const std::vector<index_t>& shape) {
  Index<D> e{};
  for (int d = 0; d < D; ++d) e[d] = shape[std::size_t(d)];
  return e;
}

/// Calls f.template operator()<T, D>() for the element type name and dimension count.
template <class F>
int dispatch(const std::string& type, std::size_t dims, F&& f) {
  return with_element_type(type, [&]<class T>() {
    switch (dims) {
      case 1:
        return f.template operator()<T, 1>();
      case 2:
        return f.template operator()<T, 2>();
      case 3:
        return f.template operator()<T, 3>();
    }
    throw UsageError("save and restore handle 1- to 3-dimensional arrays, not " + std::to_string(dims));
  });
}

/// Rank 0 prints what moved, where, and the slowest rank's time and rate.
void print_io(const std::string& what, const std::string& layout, const std::string& path, index_t bytes,
              double seconds, MPI_Comm comm);

/// --array names a series array, --dataset a plain dataset; not both.
bool series_mode(const support::Options& args);

}  // namespace distarray::cli
