#pragma once
// The MPI tests' element pattern, the one the CLI and the benchmarks use
// (support/include/distarray/support/element_pattern.hpp): an element's value
// is its row-major linear global index, so a misplaced element names itself.
// Tests read arrays only through host_block (or gather), so that they hold
// on any memory space.

#include <distarray/core/dist_array.hpp>
#include <distarray/support/element_pattern.hpp>

namespace distarray::testing {

using support::fill_pattern;
using support::local_mismatches;
using support::pattern_value;

/// `a`'s local block readable on the host: a copy of it where it lives in
/// device memory, the block itself where the host can read it.
template <class T, int D, class S, class O>
auto host_block(const DistArray<T, D, S, O>& a) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.local());
}

}  // namespace distarray::testing
