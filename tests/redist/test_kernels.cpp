// The pack and unpack kernels under threads: run by ctest with 1, 2 and 4
// OpenMP threads per rank (OMP_NUM_THREADS; one thread on a Serial build).
// Each kernel path — contiguous runs, short runs (block size 16), single
// elements at a stride, the tiled transpose with adjacent and non-adjacent
// rows, encoded messages, typed and partially typed sides — on shapes that
// are not multiples of the 32-element tile or the 256-element TLB block,
// every engine, one plan executed three times, element by element against
// the pattern.  A race between iterations writing one element shows here.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace distarray {
namespace {

using testing::world_size;

std::string p() { return std::to_string(world_size()); }

template <class SourceOrder, class DestOrder>
void check(const std::string& from_text, const std::string& to_text, const Index<2>& shape) {
  using Space = Kokkos::DefaultExecutionSpace::memory_space;
  const auto from = Layout<2>::parse(from_text, shape);
  const auto to = Layout<2>::parse(to_text, shape);
  DistArray<double, 2, Space, SourceOrder> a(from, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (const ExchangeEngine e : {ExchangeEngine::automatic, ExchangeEngine::alltoallv, ExchangeEngine::p2p,
                                 ExchangeEngine::encoded, ExchangeEngine::datatype}) {
    SCOPED_TRACE("'" + from_text + "' -> '" + to_text + "', " + std::string(to_string(e)) + ", " +
                 std::to_string(Kokkos::DefaultExecutionSpace().concurrency()) + " threads");
    PlanOptions options;
    options.method = RedistMethod::direct;
    options.exchange = e;
    Plan<double, 2, Space, SourceOrder, DestOrder> plan(from, to, MPI_COMM_WORLD, options);
    DistArray<double, 2, Space, DestOrder> b(to, MPI_COMM_WORLD);
    for (int run = 0; run < 3; ++run) {
      Kokkos::deep_copy(b.local(), -1.0);
      plan.execute(a, b);
      ASSERT_EQ(testing::local_mismatches(b), 0) << "execution " << run;
    }
  }
}

using Right = Kokkos::LayoutRight;
using Left = Kokkos::LayoutLeft;
const Index<2> tall{300, 67}, wide{67, 300};

TEST(Kernels, ContiguousRuns) {
  check<Right, Right>("block,* on " + p() + "x1", "cyclic(5),* on " + p() + "x1", tall);
  check<Left, Left>("*,block on 1x" + p(), "*,cyclic(7) on 1x" + p(), wide);
}

TEST(Kernels, ShortRuns) {
  check<Right, Right>("cyclic(16),cyclic(16) on 1x" + p(), "cyclic(3),block on " + p() + "x1", tall);
}

TEST(Kernels, SingleElementsAtAStride) {
  check<Right, Left>("block,cyclic on 1x" + p(), "cyclic,block on " + p() + "x1", wide);
}

TEST(Kernels, TiledTransposeAdjacentRows) {
  check<Right, Left>("block,* on " + p() + "x1", "*,block on 1x" + p(), tall);
  check<Left, Right>("*,block on 1x" + p(), "block,* on " + p() + "x1", wide);
}

TEST(Kernels, TiledTransposeNonAdjacentRows) {
  check<Right, Left>("cyclic(3),* on " + p() + "x1", "*,cyclic(2) on 1x" + p(), tall);
  check<Left, Right>("*,cyclic(5) on 1x" + p(), "cyclic(33),* on " + p() + "x1", wide);
}

}  // namespace
}  // namespace distarray
