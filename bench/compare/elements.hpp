#pragma once
// The element types of the comparison, double and complex<double>.  Every
// element holds a value made from its global index, so a misplaced, dropped
// or conjugated element is seen by wrong_elements().

#include <distarray/core.hpp>
#include <distarray/support/element_pattern.hpp>

#include <mpi.h>

#include <complex>
#include <string>
#include <utility>

namespace compare {

using distarray::index_t;
using Host = Kokkos::HostSpace;

template <class T>
inline constexpr bool is_complex = false;
template <>
inline constexpr bool is_complex<std::complex<double>> = true;

template <class T>
std::string type_name() {
  return is_complex<T> ? "complex<double>" : "double";
}

template <class T>
MPI_Datatype mpi_type() {
  return is_complex<T> ? MPI_CXX_DOUBLE_COMPLEX : MPI_DOUBLE;
}

/// Over the communicator: elements of `b` that do not hold the element
/// pattern (support/element_pattern.hpp, as the tests and the CLI) of their
/// global index (of the transposed index: b is a square array's transpose).
template <class T, class Order>
long wrong_elements(const distarray::DistArray<T, 2, Host, Order>& b, MPI_Comm comm,
                    bool transposed = false) {
  const distarray::Index<2> shape = b.layout().shape();
  long bad = 0;
  for (index_t i = 0; i < b.local_size(); ++i) {
    auto g = b.global_index(b.local_index(i));
    if (transposed) std::swap(g[0], g[1]);
    bad += b.local().data()[i] != distarray::support::pattern_value<T, 2>(g, shape);
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, comm);
  return bad;
}

}  // namespace compare
