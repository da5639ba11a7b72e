#pragma once
// The element pattern the CLI, the tests and the benchmarks fill arrays with
// and check them by (ARCHITECTURE Sec. 7): an element's value is its
// row-major linear global index converted to the element type — f32 takes
// it modulo 2^24 (exact in a float), i32 modulo 2^31, complex<double>
// carries minus the index as imaginary part — so a misplaced, dropped or
// conjugated element names itself, and any reader (h5py too) can check any
// element.  Step s of a series holds the pattern of index + s.

#include <distarray/core/dist_array.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/core/row_major.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <complex>
#include <cstdint>
#include <type_traits>

namespace distarray::support {

/// The pattern's value at row-major linear index `linear`.
template <class T>
T pattern_value(index_t linear) {
  if constexpr (std::is_same_v<T, float>)
    return float(linear % (index_t(1) << 24));
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return std::int32_t(linear % (index_t(1) << 31));
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return {double(linear), -double(linear)};
  else
    return T(linear);
}

/// The pattern's value at global index `g` of an array of `shape`, plus `shift`.
template <class T, int D>
T pattern_value(const Index<D>& g, const Index<D>& shape, index_t shift = 0) {
  return pattern_value<T>(row_major_offset(g, shape) + shift);
}

/// Fills `a` with the pattern shifted by `shift`.
template <class T, int D, class S, class O>
void fill_pattern(DistArray<T, D, S, O>& a, index_t shift = 0) {
  const Index<D> shape = a.layout().shape();
  a.fill([&](const Index<D>& g) { return pattern_value<T, D>(g, shape, shift); });
}

/// Elements of this rank's block of `a` that differ from the pattern shifted
/// by `shift`, read through a host mirror (so on any memory space).
template <class T, int D, class S, class O>
index_t local_mismatches(const DistArray<T, D, S, O>& a, index_t shift = 0) {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.local());
  const Index<D> shape = a.layout().shape();
  index_t bad = 0;
  for (index_t i = 0; i < a.local_size(); ++i)
    bad += host.data()[i] != pattern_value<T, D>(a.global_index(a.local_index(i)), shape, shift);
  return bad;
}

/// The same summed over all ranks of `a`.  Collective.
template <class T, int D, class S, class O>
index_t pattern_mismatches(const DistArray<T, D, S, O>& a, index_t shift = 0) {
  index_t bad = local_mismatches(a, shift);
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, a.comm()));
  return bad;
}

}  // namespace distarray::support
