#include <distarray/core/proc_grid.hpp>

#include "mpi/world.hpp"

#include <gtest/gtest.h>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

// Every factorization of the world size, and grids on a sub-range of ranks.
TEST(ProcGrid, CoordinatesAndSubCommunicators) {
  const int n = world_size();
  for (int first = 0; first < n; ++first)
    for (int rows = 1; rows <= n - first; ++rows)
      for (int cols = 1; rows * cols <= n - first; ++cols) {
        const ProcGrid<2> g(GridShape<2>::make({rows, cols}, first), MPI_COMM_WORLD);
        const int me = world_rank();
        const bool inside = me >= first && me < first + rows * cols;
        ASSERT_EQ(g.contains_me(), inside);
        if (!inside) {
          EXPECT_EQ(g.dim_comm(0), MPI_COMM_NULL);
          EXPECT_EQ(g.dim_comm(1), MPI_COMM_NULL);
          continue;
        }
        const Coord<2> c = *g.coord();
        EXPECT_EQ(g.shape().rank_of(c), me);
        // Along dimension d: extent-many ranks, ordered by coordinate d.
        for (int d = 0; d < 2; ++d) {
          int size = 0, rank = 0;
          MPI_Comm_size(g.dim_comm(d), &size);
          MPI_Comm_rank(g.dim_comm(d), &rank);
          EXPECT_EQ(size, g.shape().dims[d]);
          EXPECT_EQ(rank, c[d]);
          // The neighbours agree on the other coordinate.
          int other = c[1 - d], min = 0, max = 0;
          MPI_Allreduce(&other, &min, 1, MPI_INT, MPI_MIN, g.dim_comm(d));
          MPI_Allreduce(&other, &max, 1, MPI_INT, MPI_MAX, g.dim_comm(d));
          EXPECT_EQ(min, other);
          EXPECT_EQ(max, other);
        }
      }
}

TEST(ProcGrid, GridLargerThanTheCommunicatorThrowsOnEveryRank) {
  const int n = world_size();
  try {
    ProcGrid<2> g(GridShape<2>::make({n, 1}, 1), MPI_COMM_WORLD);
    FAIL() << "a grid of ranks 1.." << n << " does not fit " << n << " ranks";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("communicator has " + std::to_string(n) + " ranks"),
              std::string::npos)
        << e.what();
  }
  // Every rank threw and none is stuck: a collective still completes.
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace distarray
