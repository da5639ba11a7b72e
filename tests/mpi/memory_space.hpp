#pragma once
// For the tests whose expectation depends on where arrays live: MPI reads
// host memory, and device memory only where the MPI library says it can;
// elsewhere buffers are staged through host memory, and nothing moves by
// derived datatypes (exchange_choice.hpp).

#include <distarray/redist/detail/exec/exchange_choice.hpp>

#include <Kokkos_Core.hpp>

namespace distarray::testing {

/// Whether MPI reads arrays of `Space` in place (as Plan and MatrixTransform
/// decide it).  Collective.
template <class Space>
bool mpi_reads_arrays_in() {
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;
  return host || !detail::staged_buffers(BufferStaging::automatic, host, MPI_COMM_WORLD);
}

}  // namespace distarray::testing
