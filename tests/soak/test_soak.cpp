// Opt-in soak tests (scripts/soak.sh): one plan executed 10,000 times and
// 1,000 checkpoint save/restore cycles, every result checked, with resident
// memory read at the start and the end of each (the growth bound is asserted
// and both figures printed for the reliability page).

#include <distarray/io.hpp>
#include <distarray/redist.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace distarray {
namespace {

using testing::local_mismatches;
using testing::resident_kib;
using testing::world_rank;
using testing::world_size;

/// Prints rank 0's resident memory and the largest growth over the ranks.
void report(const char* what, long start, long end, int cycles) {
  long growth = end - start, worst = 0;
  MPI_Allreduce(&growth, &worst, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (world_rank() == 0)
    std::printf(
        "soak: %s, %d cycles on %d ranks: resident %ld KiB at start, %ld KiB at end on rank 0; "
        "largest growth over the ranks %ld KiB\n",
        what, cycles, world_size(), start, end, worst);
}

TEST(Soak, OnePlanTenThousandExecutions) {
  const int p = world_size();
  const Index<2> shape{256, 192};
  const auto from = Layout<2>::parse("block,* on " + std::to_string(p) + "x1", shape);
  const auto to = Layout<2>::parse("cyclic(3),cyclic(5) on 1x" + std::to_string(p), shape);
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  const int executions = 10000;
  long start = 0;
  for (int i = 0; i < executions; ++i) {
    if (i == 100) start = resident_kib();  // after the automatic engine has settled
    plan.execute(a, b);
    if (i % 1000 == 999) ASSERT_EQ(local_mismatches(b), 0) << "execution " << i;
  }
  const long end = resident_kib();
  report(("plan executions (" + plan.report().exchange + ")").c_str(), start, end, executions);
  EXPECT_LE(end - start, 1024) << "resident memory grew by more than 1 MiB";
}

TEST(Soak, OneThousandSaveRestoreCycles) {
  const int p = world_size();
  const Index<2> shape{96, 80};
  const auto saved = Layout<2>::parse("cyclic(4),block on " + std::to_string(p) + "x1", shape);
  const auto restored = Layout<2>::parse("block,cyclic on 1x" + std::to_string(p), shape);
  DistArray<double, 2> a(saved, MPI_COMM_WORLD), b(restored, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  const std::string path = "soak-" + std::to_string(p) + ".h5";
  const int cycles = 1000;
  long start = 0;
  for (int i = 0; i < cycles; ++i) {
    if (i == 20) start = resident_kib();
    save(path, "u", a);
    Kokkos::deep_copy(b.local(), -1.0);
    restore(path, "u", b);
    ASSERT_EQ(local_mismatches(b), 0) << "cycle " << i;
  }
  const long end = resident_kib();
  report("checkpoint save+restore", start, end, cycles);
  // OpenMPI 4.1's default MPI-IO component (OMPIO) leaks about 60 KiB per
  // collective read of a strided selection at 4 ranks (not with ROMIO:
  // OMPI_MCA_io=romio321); scripts/soak.sh runs both, asserting with ROMIO.
  const char* bound = std::getenv("DISTARRAY_SOAK_BOUND_KIB");
  EXPECT_LE(end - start, bound ? std::atol(bound) : 4096) << "resident memory grew beyond the bound";
  if (world_rank() == 0) std::remove(path.c_str());
}

}  // namespace
}  // namespace distarray
