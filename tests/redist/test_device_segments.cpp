// DeviceSegments (redist/src/exchange/device_segments.cpp): in a build with
// CUDA or HIP, segments in the GPU's memory that every rank of the node
// writes and reads through IPC, sizes differing by rank; elsewhere refused
// on every rank with an error that names the reason.

#include <distarray/core/detail/collective.hpp>

#include "exchange/exchange.hpp"  // redist/src
#include "exchange/node_segments.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <cstddef>

namespace distarray {
namespace {

using Bytes = Kokkos::View<char*, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::MemoryUnmanaged>;

/// `bytes` rounded up to whole pages, as NodeMemory allocates.
std::size_t whole_pages(std::size_t bytes) {
  const auto page = std::size_t(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

TEST(DeviceSegments, EveryRankOfTheNodeReadsEveryOthersSegment) {
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  const int me = detail::rank_of(node), ranks = detail::ranks_of(node);
  if (!detail::device_segments_built()) {
    testing::expect_throw_on_every_rank(
        [&] { detail::DeviceSegments(node, 4096, MPI_COMM_WORLD); },
        "shared exchange on device memory: this build has no CUDA or HIP IPC");
  } else {
    const detail::DeviceSegments segments(node, 1000 + 5000 * std::size_t(me), MPI_COMM_WORLD);
    Kokkos::deep_copy(Bytes(segments.segment(me), segments.bytes_of(me)), char('a' + me));
    Kokkos::fence();
    MPI_Barrier(node);
    for (int r = 0; r < ranks; ++r) {
      ASSERT_EQ(segments.bytes_of(r), whole_pages(1000 + 5000 * std::size_t(r)));
      const auto seen = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{},
                                                            Bytes(segments.segment(r), segments.bytes_of(r)));
      EXPECT_EQ(seen(0), 'a' + r) << "rank " << r;
      EXPECT_EQ(seen(seen.extent(0) - 1), 'a' + r) << "rank " << r;
      EXPECT_LE(segments.lowest(), segments.segment(r));
    }
    MPI_Barrier(node);  // (no rank frees while another still reads: the test's order, not the class's)
  }
  MPI_Comm_free(&node);
}

}  // namespace
}  // namespace distarray
