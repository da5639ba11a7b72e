#pragma once
// The MPI tests' element pattern: an element's value is its row-major linear
// global index (complex: minus it as imaginary part), so a misplaced element
// names itself.

#include <distarray/core/dist_array.hpp>

#include <complex>
#include <type_traits>

namespace distarray::testing {

template <class T, int D>
T pattern(const Index<D>& g, const Index<D>& shape) {
  const auto v = row_major_offset(g, shape);
  if constexpr (std::is_same_v<T, std::complex<double>>)
    return T(double(v), -double(v));
  else
    return T(v);
}

template <class T, int D, class S, class O>
void fill_pattern(DistArray<T, D, S, O>& a) {
  const Index<D> shape = a.layout().shape();
  a.fill([&](const Index<D>& g) { return pattern<T, D>(g, shape); });
}

/// `a`'s local block readable on the host: a copy of it where it lives in
/// device memory, the block itself where the host can read it.  Tests read
/// arrays only through this (or gather), so that they hold on any memory space.
template <class T, int D, class S, class O>
auto host_block(const DistArray<T, D, S, O>& a) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.local());
}

/// Local elements of `a` that differ from the pattern.
template <class T, int D, class S, class O>
index_t mismatches(const DistArray<T, D, S, O>& a) {
  const auto host = host_block(a);
  index_t bad = 0;
  for (index_t i = 0; i < a.local_size(); ++i)
    bad += host.data()[i] != pattern<T, D>(a.global_index(a.local_index(i)), a.layout().shape());
  return bad;
}

}  // namespace distarray::testing
