// Whether MPI is handed device memory is one decision, agreed on every rank:
// a rank that declares a GPU-aware MPI (DISTARRAY_GPU_AWARE_MPI=1) beside
// ranks that do not stages like them, and where the MPI library cannot say
// (no MPIX_Query_cuda_support, as with MPICH) nothing is handed to MPI
// unstaged unless every rank's user declared it.  `distarray explain` says
// what that decision leaves the automatic engine on device memory.

#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/strategy.hpp>

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

TEST(GpuAwareMpi, ExplainSaysWhatTheAutomaticEngineTimesOnDeviceMemory) {
  const int p = testing::world_size();
  const Index<2> shape{256, 256};  // runs of 1 KiB on the receive side: worth a datatype
  const auto from = Layout<2>::parse("block,* on " + std::to_string(p) + "x1", shape);
  const auto to = Layout<2>::parse("*,block on 1x" + std::to_string(p), shape);
  PlanOptions options;
  const Strategy<2> s = choose_strategy<2>(from, to, MPI_COMM_WORLD, options, sizeof(double));
  const auto explain = [&](bool host_memory) {
    return explain_exchange<2>(s, {StorageOrder::row_major, StorageOrder::row_major}, options, sizeof(double),
                               MPI_COMM_WORLD, host_memory);
  };
  const std::string cannot_read = "MPI cannot read the arrays' device memory";
  const std::string device = explain(false), host = explain(true);
  EXPECT_EQ(device.find(cannot_read) != std::string::npos,
            staged_buffers(options.staging, false, MPI_COMM_WORLD))
      << device;
  EXPECT_EQ(device.find("shared (host memory)"), std::string::npos) << device;
  EXPECT_EQ(host.find(cannot_read), std::string::npos) << host;
  EXPECT_NE(host.find("datatype"), std::string::npos) << host;
  options.staging = BufferStaging::host;  // staged on every rank: nothing typed on a device
  EXPECT_NE(explain(false).find(cannot_read), std::string::npos);
  EXPECT_EQ(explain(true).find(cannot_read), std::string::npos);
}

}  // namespace
}  // namespace distarray
