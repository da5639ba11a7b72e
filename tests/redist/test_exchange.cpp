// The exchange half of a step: the engine choice (choose_exchange) made
// together, every engine through host-staged buffers (the path device
// memory takes) against the pattern, kernel launches per execution, and the
// automatic engine's states.  At 1, 2, 3, 4, 6 and 7 ranks.

#include <distarray/redist/plan.hpp>

#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/detail/tables/plan_tables.hpp>

#include "exchange/message_waves.hpp"  // redist/src
#include "exchange/node_segments.hpp"
#include "mpi/memory_space.hpp"
#include "mpi/pattern.hpp"
#include "mpi/settled.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace distarray {
namespace {

using testing::ranks_text;
using testing::world_rank;
using Space = Kokkos::DefaultExecutionSpace::memory_space;

/// This rank's {send, receive} tables of `from` -> `to` on MPI_COMM_WORLD.
std::pair<detail::CopyTable, detail::CopyTable> tables(const std::string& from_text,
                                                       const std::string& to_text, const Index<2>& shape,
                                                       StorageOrder dest_order) {
  const auto from = Layout<2>::parse(from_text, shape);
  const auto to = Layout<2>::parse(to_text, shape);
  const auto rank_in = [](const Layout<2>& l) {
    return [&l](const Coord<2>& c) { return l.grid().rank_of(c); };
  };
  return detail::exchange_tables<2>(from, to, from.grid().coord_of(world_rank()),
                                    to.grid().coord_of(world_rank()), ScheduleMethod::automatic,
                                    rank_in(from), rank_in(to), true, {StorageOrder::row_major, dest_order});
}

detail::ExchangeChoice choice(ExchangeEngine engine, const std::string& from, const std::string& to,
                              StorageOrder dest_order = StorageOrder::row_major, bool mpi_reads_arrays = true,
                              std::size_t max_message_bytes = INT_MAX) {
  const auto [send, recv] = tables(from, to, {2100, 700}, dest_order);
  PlanOptions options;
  options.exchange = engine;
  options.max_message_bytes = max_message_bytes;
  return detail::choose_exchange(MPI_COMM_WORLD, send, recv, sizeof(double), options, mpi_reads_arrays);
}

std::string rows() { return "block,* on " + ranks_text() + "x1"; }
std::string columns() { return "*,block on 1x" + ranks_text(); }

TEST(ExchangeChoice, EnginesAsAsked) {
  for (const ExchangeEngine e : {ExchangeEngine::p2p, ExchangeEngine::encoded, ExchangeEngine::alltoallv})
    EXPECT_EQ(choice(e, rows(), columns()).engine, e);
  const auto typed = choice(ExchangeEngine::datatype, rows(), columns());
  EXPECT_EQ(typed.engine, ExchangeEngine::datatype);
  EXPECT_TRUE(typed.send_typed && typed.recv_typed);
  EXPECT_FALSE(typed.send_buffer() || typed.recv_buffer());
  // Every rank of a test launch is on this node.
  const auto shared = choice(ExchangeEngine::shared, rows(), columns());
  EXPECT_EQ(shared.engine, ExchangeEngine::shared);
  EXPECT_FALSE(shared.send_buffer() || shared.recv_buffer()) << "its messages go into the receivers' window";
}

TEST(ExchangeChoice, SharedFallsBackToAlltoallvWhereKernelsCannotWriteTheWindow) {
  const auto [send, recv] = tables(rows(), columns(), {2100, 700}, StorageOrder::row_major);
  PlanOptions options;
  options.exchange = ExchangeEngine::shared;
  // Kernels that write no segments on one rank only: every rank falls back together.
  const auto segments = world_rank() != 0 ? detail::SegmentMemory::host : detail::SegmentMemory::none;
  const auto c =
      detail::choose_exchange(MPI_COMM_WORLD, send, recv, sizeof(double), options, true, {}, segments);
  EXPECT_EQ(c.engine, ExchangeEngine::alltoallv);
  EXPECT_TRUE(c.send_buffer() && c.recv_buffer());
}

TEST(ExchangeChoice, SharedOnDeviceMemoryNeedsCudaIpcAndEveryRankOnOneNode) {
  const auto [send, recv] = tables(rows(), columns(), {2100, 700}, StorageOrder::row_major);
  PlanOptions options;
  const auto on_device = [&](ExchangeEngine engine) {
    options.exchange = engine;
    return detail::choose_exchange(MPI_COMM_WORLD, send, recv, sizeof(double), options, true, {},
                                   detail::SegmentMemory::device);
  };
  const bool built = detail::device_segments_built();
  const auto one_node = on_device(ExchangeEngine::shared);
  EXPECT_EQ(one_node.engine, built ? ExchangeEngine::shared : ExchangeEngine::alltoallv);
  EXPECT_TRUE(one_node.device_segments);
  EXPECT_FALSE(on_device(ExchangeEngine::automatic).shared_trial) << "taken only where asked for, so far";
  if (testing::world_size() > 1) {
    // Messages between nodes would go by MPI from device segments: refused.
    const testing::EmulatedNodes two(2);
    EXPECT_EQ(on_device(ExchangeEngine::shared).engine, ExchangeEngine::alltoallv);
    EXPECT_FALSE(on_device(ExchangeEngine::automatic).shared_trial);
  }
}

TEST(ExchangeChoice, CollectivesNeedEveryMessageToFitTheirCounts) {
  // Rank 0's messages above the limit make every rank go point-to-point.
  const std::size_t limit = world_rank() == 0 ? 1000 : INT_MAX;
  for (const ExchangeEngine e :
       {ExchangeEngine::automatic, ExchangeEngine::alltoallv, ExchangeEngine::datatype})
    EXPECT_EQ(choice(e, rows(), columns(), StorageOrder::row_major, true, limit).engine, ExchangeEngine::p2p);
}

TEST(ExchangeChoice, DatatypesNeedArraysMpiCanRead) {
  EXPECT_EQ(choice(ExchangeEngine::datatype, rows(), columns(), StorageOrder::row_major, false).engine,
            ExchangeEngine::alltoallv);
  EXPECT_EQ(choice(ExchangeEngine::automatic, rows(), columns(), StorageOrder::row_major, false).engine,
            ExchangeEngine::alltoallv);
}

TEST(ExchangeChoice, AutomaticTypesLongContiguousRunsOnly) {
  // Whole rows to whole rows: long contiguous runs on both sides, typed, and
  // measured against packing all the same (datatypes fall behind on a busy machine).
  const auto whole_rows = choice(ExchangeEngine::automatic, rows(), "block,* on 1x1");
  EXPECT_EQ(whole_rows.engine, ExchangeEngine::automatic);
  EXPECT_TRUE(whole_rows.send_typed && whole_rows.recv_typed);
  // Single columns (cyclic): spaced singles on both sides, packing only.
  // (On one rank every pair of layouts is the same mapping: one block.)
  // Where ranks share a node the shared window is measured against packing;
  // one rank per "node": packing only.
  if (testing::world_size() > 1) {
    const auto singles = [] {
      return choice(ExchangeEngine::automatic, "*,cyclic on 1x" + ranks_text(),
                    "*,cyclic(2) on 1x" + ranks_text());
    };
    const auto on_one_node = singles();
    EXPECT_EQ(on_one_node.engine, ExchangeEngine::automatic);
    EXPECT_TRUE(on_one_node.shared_trial && !on_one_node.typed_trial);
    EXPECT_FALSE(on_one_node.send_typed || on_one_node.recv_typed);
    const testing::EmulatedNodes apart(testing::world_size());
    const auto one_per_node = singles();
    EXPECT_EQ(one_per_node.engine, ExchangeEngine::alltoallv);
    EXPECT_FALSE(one_per_node.send_typed || one_per_node.recv_typed || one_per_node.shared_trial);
  }
  // A transpose into a column-major block: the send side is strided (packed),
  // the receive side long and contiguous (typed); both are measured.
  const auto transpose = choice(ExchangeEngine::automatic, rows(), columns(), StorageOrder::column_major);
  EXPECT_EQ(transpose.engine, ExchangeEngine::automatic);
  EXPECT_FALSE(transpose.send_typed);
  EXPECT_TRUE(transpose.send_buffer() && transpose.recv_buffer());
}

template <class DestOrder>
PlanReport run(ExchangeEngine engine, BufferStaging staging, std::size_t max_message_bytes = INT_MAX) {
  const Index<2> shape{67, 45};
  const auto from = Layout<2>::parse("cyclic(4),* on " + ranks_text() + "x1", shape);
  const auto to = Layout<2>::parse("*,cyclic(3) on 1x" + ranks_text(), shape);
  SCOPED_TRACE(std::string(to_string(engine)) + ", staging " + std::string(to_string(staging)));
  PlanOptions options;
  options.method = RedistMethod::direct;
  options.exchange = engine;
  options.staging = staging;
  options.max_message_bytes = max_message_bytes;
  Plan<double, 2, Space, Kokkos::LayoutRight, DestOrder> plan(from, to, MPI_COMM_WORLD, options);
  DistArray<double, 2, Space> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Space, DestOrder> b(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (int k = 0; k < 2 || (testing::measuring(plan) && k < testing::patient_executions); ++k) {
    Kokkos::deep_copy(b.local(), -1.0);
    plan.execute(a, b);
    EXPECT_EQ(testing::local_mismatches(b), 0) << "execution " << k;
  }
  const PlanReport& r = plan.report();
  const bool sends = r.messages_sent > 0, receives = r.messages_received > 0;
  const bool typed_send =
      r.exchange.rfind("datatype", 0) == 0 && r.exchange.find("receive side") == std::string::npos;
  EXPECT_EQ(r.pack_launches, sends && !typed_send ? 1 : 0) << r.exchange;
  // The message to oneself, on every engine: one launch from source to destination.
  EXPECT_EQ(r.local_launches, r.bytes_local > 0 ? 1 : 0) << r.exchange;
  if (engine == ExchangeEngine::p2p) {  // unpacked on arrival, in waves (message_waves.hpp)
    EXPECT_GE(r.unpack_launches, receives ? 1 : 0);
    EXPECT_LE(r.unpack_launches, std::min(r.messages_received, detail::MessageWaves::max_waves))
        << "at most one per wave";
  } else if (engine == ExchangeEngine::encoded) {
    // Its receivers know no receive schedule (no message count in the
    // report): the p2p engine's count, in waves.
    const PlanReport p2p = run<DestOrder>(ExchangeEngine::p2p, staging);
    EXPECT_GE(r.unpack_launches, p2p.messages_received > 0 ? 1 : 0);
    EXPECT_LE(r.unpack_launches, std::min(p2p.messages_received, detail::MessageWaves::max_waves));
  } else if (r.exchange.rfind("datatype", 0) != 0)
    EXPECT_EQ(r.unpack_launches, receives ? 1 : 0) << r.exchange << ": one launch for the whole side";
  EXPECT_TRUE(r.settled) << r.exchange;
  EXPECT_EQ(r.exchange.find("measuring"), std::string::npos);
  return r;
}

TEST(Exchange, EveryEngineThroughHostStagedBuffers) {
  for (const ExchangeEngine e : {ExchangeEngine::automatic, ExchangeEngine::alltoallv, ExchangeEngine::p2p,
                                 ExchangeEngine::encoded, ExchangeEngine::datatype, ExchangeEngine::shared})
    for (const BufferStaging s : {BufferStaging::automatic, BufferStaging::host}) {
      run<Kokkos::LayoutRight>(e, s);
      run<Kokkos::LayoutLeft>(e, s);
    }
  run<Kokkos::LayoutRight>(ExchangeEngine::p2p, BufferStaging::host, 100);  // chunks of 100 bytes
  run<Kokkos::LayoutRight>(ExchangeEngine::encoded, BufferStaging::host, 100);
}

TEST(Exchange, AutomaticEngineMeasuresThenSettles) {
  const Index<2> shape{1024, 1024};  // runs of at least 146 elements at 7 ranks: worth typing
  const auto from = Layout<2>::parse(rows(), shape), to = Layout<2>::parse(columns(), shape);
  Plan<double, 2, Space, Kokkos::LayoutRight, Kokkos::LayoutLeft> plan(from, to, MPI_COMM_WORLD);
  DistArray<double, 2, Space> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Space, Kokkos::LayoutLeft> b(to, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  // Depends on the memory space: where MPI cannot read the arrays (device
  // memory staged through host buffers) nothing is typed, so nothing to measure.
  if (!testing::mpi_reads_arrays_in<Space>()) {
    plan.execute(a, b);
    EXPECT_EQ(testing::local_mismatches(b), 0);
    EXPECT_EQ(plan.report().exchange.rfind("alltoallv", 0), 0u) << plan.report().exchange;
    return;
  }
  EXPECT_EQ(plan.report().exchange, "auto(measuring)");
  EXPECT_FALSE(plan.report().settled);
  // A warm-up, then two or more rounds of alltoallv, datatype and (ranks on
  // one node) shared.
  const int contenders = testing::world_size() > 1 ? 3 : 2;
  int executions = 0;
  for (; executions == 0 || testing::measuring(plan); ++executions) {
    ASSERT_LT(executions, testing::most_measuring_executions) << plan.report().exchange;
    plan.execute(a, b);
    ASSERT_EQ(testing::local_mismatches(b), 0);
  }
  // The last: the first whose start found every rank settled (PlanReport::settled).
  const int trials = executions - 1;
  EXPECT_GE(trials, 1 + 2 * contenders);
  EXPECT_EQ((trials - 1) % contenders, 0) << trials << " trial executions: not whole rounds";
  const std::string settled = plan.report().exchange;
  EXPECT_TRUE(settled.rfind("alltoallv", 0) == 0 || settled.rfind("datatype", 0) == 0 ||
              (settled == "shared" && testing::world_size() > 1))
      << settled;
  EXPECT_EQ(plan.report().trial_executions, trials) << "one step: each measuring execution counted once";
  plan.execute(a, b);
  EXPECT_EQ(plan.report().exchange, settled);  // decided (then watched: test_automatic_watch.cpp)
  EXPECT_EQ(plan.report().trial_executions, trials);
}

}  // namespace
}  // namespace distarray
