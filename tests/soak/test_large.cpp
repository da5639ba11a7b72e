// Opt-in test at real size (scripts/soak.sh --large; needs ~11 GB of memory
// and 2 ranks): a global extent and a local block above 2^31 elements, and
// one per-peer message above 2 GiB, which MPI's int counts cannot carry in
// one call: the plan must split it and deliver every element.

#include <distarray/redist.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

namespace distarray {
namespace {

TEST(Large, OneMessageAboveTwoGiB) {
  ASSERT_EQ(testing::world_size(), 2) << "run on exactly 2 ranks (scripts/soak.sh --large)";
  const index_t n = 2'500'000'000;                        // int8 elements: 2.33 GiB in one message
  const auto from = Layout<1>::parse("block on 1", {n});  // all on rank 0
  const auto to = Layout<1>::parse("block on 1@1", {n});  // all on rank 1
  DistArray<std::int8_t, 1> a(from, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (ExchangeEngine e : {ExchangeEngine::automatic, ExchangeEngine::p2p}) {
    PlanOptions options;
    options.exchange = e;
    DistArray<std::int8_t, 1> b(to, MPI_COMM_WORLD);
    Plan<std::int8_t, 1> plan(from, to, MPI_COMM_WORLD, options);
    const double start = MPI_Wtime();
    plan.execute(a, b);
    const double seconds = MPI_Wtime() - start;
    EXPECT_EQ(testing::local_mismatches(b), 0);
    EXPECT_EQ(plan.report().bytes_sent + plan.report().bytes_received,
              n);  // one rank sends, the other receives
    if (testing::world_rank() == 1)
      std::printf("large: %ld elements in one message, engine %s, %.2f s\n", long(n),
                  plan.report().exchange.c_str(), seconds);
  }
}

}  // namespace
}  // namespace distarray
