// Whether MPI is handed device memory is one decision, agreed on every rank:
// a rank that declares a GPU-aware MPI (DISTARRAY_GPU_AWARE_MPI=1) beside
// ranks that do not stages like them, and where the MPI library cannot say
// (no MPIX_Query_cuda_support, as with MPICH) nothing is handed to MPI
// unstaged unless every rank's user declared it.

#include <distarray/redist/detail/exec/exchange_choice.hpp>

#include "mpi/world.hpp"

#include <gtest/gtest.h>

namespace distarray {
namespace {

using detail::GpuAwareDeclaration;
using detail::staged_buffers;

TEST(GpuAwareMpi, OneRankDeclaringDoesNotSplitTheDecision) {
  const auto mine = testing::world_rank() == 0 ? GpuAwareDeclaration::direct : GpuAwareDeclaration::none;
  const bool staged = staged_buffers(BufferStaging::automatic, false, MPI_COMM_WORLD, mine);
  const auto mpi = detail::mpi_device_memory();
  // Alone, the declaring rank would hand MPI device pointers while the others stage.
  const bool others_stage = testing::world_size() > 1 && mpi != detail::MpiDeviceMemory::reads;
  EXPECT_EQ(staged, others_stage || mpi == detail::MpiDeviceMemory::cannot);
  int agreed[2] = {staged, staged};
  MPI_Allreduce(MPI_IN_PLACE, &agreed[0], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &agreed[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(agreed[0], agreed[1]);
}

TEST(GpuAwareMpi, WhereMpiCannotSayOnlyADeclarationOnEveryRankSkipsStaging) {
  const auto mpi = detail::mpi_device_memory();
  EXPECT_EQ(staged_buffers(BufferStaging::automatic, false, MPI_COMM_WORLD, GpuAwareDeclaration::none),
            mpi != detail::MpiDeviceMemory::reads);
  EXPECT_EQ(staged_buffers(BufferStaging::automatic, false, MPI_COMM_WORLD, GpuAwareDeclaration::direct),
            mpi == detail::MpiDeviceMemory::cannot);
  EXPECT_TRUE(staged_buffers(BufferStaging::automatic, false, MPI_COMM_WORLD, GpuAwareDeclaration::staged));
  EXPECT_TRUE(staged_buffers(BufferStaging::host, true, MPI_COMM_WORLD));
  EXPECT_FALSE(staged_buffers(BufferStaging::automatic, true, MPI_COMM_WORLD, GpuAwareDeclaration::staged));
}

}  // namespace
}  // namespace distarray
