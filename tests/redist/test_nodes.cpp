// Ranks grouped by node for the shared engine (redist/src/exchange/node.cpp,
// node_segments.cpp): the emulated split tests run mixed plans on, a bad
// emulation refused on every rank, a step whose windows have no room on a
// node falling back to an engine that packs through MPI, every rank alike,
// and segments every rank of a node reads and writes, refused on every rank
// where one cannot be made, leaving nothing in /dev/shm.

#include <distarray/core/detail/collective.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>

#include "exchange/exchange.hpp"  // redist/src
#include "exchange/node_segments.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

TEST(Nodes, EmulatedSplitCutsTheRanksInRankOrder) {
  const testing::EmulatedNodes two(2);
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  const std::vector<int> numbers = detail::node_ranks(MPI_COMM_WORLD, node);
  MPI_Comm_free(&node);
  // (Every rank of a test launch is on this machine.)
  const int p = world_size(), first_of_second = (p + 1) / 2;
  const bool second = world_rank() >= first_of_second;
  for (int r = 0; r < p; ++r) {
    const bool with_me = (r >= first_of_second) == second;
    if (with_me)
      EXPECT_EQ(numbers[std::size_t(r)], second ? r - first_of_second : r) << "rank " << r;
    else
      EXPECT_EQ(numbers[std::size_t(r)], MPI_UNDEFINED) << "rank " << r;
  }
}

TEST(Nodes, WithoutEmulationEveryRankSharesTheNode) {
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  const std::vector<int> numbers = detail::node_ranks(MPI_COMM_WORLD, node);
  MPI_Comm_free(&node);
  for (int r = 0; r < world_size(); ++r) EXPECT_EQ(numbers[std::size_t(r)], r);
}

TEST(Nodes, BadEmulationThrowsOnEveryRank) {
  for (const char* bad : {"0", "two", "2x", "-1", ""}) {
    SCOPED_TRACE(bad);
    setenv("DISTARRAY_EMULATED_NODES", bad, 1);
    testing::expect_throw_on_every_rank([] { detail::node_communicator(MPI_COMM_WORLD); },
                                        "DISTARRAY_EMULATED_NODES must be a whole number");
    unsetenv("DISTARRAY_EMULATED_NODES");
  }
  if (world_size() < 2) return;
  // Set on rank 0 alone: rank 0 cut its ranks into two "nodes", the others into one.
  if (world_rank() == 0) setenv("DISTARRAY_EMULATED_NODES", "2", 1);
  testing::expect_throw_on_every_rank(
      [] { detail::node_communicator(MPI_COMM_WORLD); },
      "node grouping: ranks disagree on the environment variable DISTARRAY_EMULATED_NODES");
  unsetenv("DISTARRAY_EMULATED_NODES");
}

TEST(Nodes, RoomIsAgreedOnTheNode) {
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  EXPECT_TRUE(detail::node_has_room(node, 4096));
  // More than any machine's shared memory on one rank: no room for anyone.
  EXPECT_FALSE(detail::node_has_room(node, world_rank() == 0 ? std::size_t(1) << 60 : 4096));
  MPI_Comm_free(&node);
}

TEST(Nodes, SharedFallsBackWhereANodeHasNoRoomForTheWindows) {
  // Tables that claim 2^57 bytes on rank 0: no room there, and too large
  // for a collective's int counts, so every rank goes point-to-point.
  detail::CopyTable send, recv;
  if (world_rank() == 0) recv.total = index_t(1) << 54;
  PlanOptions options;
  options.exchange = ExchangeEngine::shared;
  const auto c = detail::choose_exchange(MPI_COMM_WORLD, send, recv, sizeof(double), options, true);
  EXPECT_EQ(c.engine, ExchangeEngine::p2p);
  EXPECT_TRUE(c.send_buffer() && c.recv_buffer());
  // The same step with room: shared.
  recv.total = 0;
  EXPECT_EQ(detail::choose_exchange(MPI_COMM_WORLD, send, recv, sizeof(double), options, true).engine,
            ExchangeEngine::shared);
}

/// Names in /dev/shm that NodeSegments made for `node` (named after its
/// rank 0's process; other tests may run at once).
int segment_names_left(MPI_Comm node) {
  long long pid = getpid();
  MPI_Bcast(&pid, 1, MPI_LONG_LONG, 0, node);
  const std::string prefix = "distarray." + std::to_string(pid) + ".";
  int left = 0;
  if (std::filesystem::exists("/dev/shm"))
    for (const auto& entry : std::filesystem::directory_iterator("/dev/shm"))
      left += entry.path().filename().string().rfind(prefix, 0) == 0;
  return left;
}

TEST(NodeSegments, EveryRankOfTheNodeSeesEveryOthersSegment) {
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  const int me = detail::rank_of(node), ranks = detail::ranks_of(node);
  {
    // Sizes that differ by rank (each rounded up to pages).
    const detail::NodeSegments segments(node, 1000 + 5000 * std::size_t(me), MPI_COMM_WORLD);
    std::memset(segments.segment(me), 'a' + me, segments.bytes_of(me));
    MPI_Barrier(node);
    for (int r = 0; r < ranks; ++r) {
      EXPECT_GE(segments.bytes_of(r), 1000 + 5000 * std::size_t(r));
      EXPECT_EQ(segments.segment(r)[0], 'a' + r) << "rank " << r;
      EXPECT_EQ(segments.segment(r)[segments.bytes_of(r) - 1], 'a' + r) << "rank " << r;
      EXPECT_LE(segments.lowest(), segments.segment(r));
    }
    MPI_Barrier(node);  // (no rank unmaps while another still reads: the test's order, not the class's)
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(segment_names_left(node), 0) << "names are unlinked once every rank has mapped them";
  MPI_Comm_free(&node);
}

TEST(NodeSegments, ASegmentNoMemoryHoldsThrowsOnEveryRank) {
  MPI_Comm node = detail::node_communicator(MPI_COMM_WORLD);
  const std::size_t bytes = world_rank() == 0 ? std::size_t(1) << 60 : 4096;
  testing::expect_throw_on_every_rank([&] { detail::NodeSegments(node, bytes, MPI_COMM_WORLD); },
                                      "shared exchange: reserving");
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(segment_names_left(node), 0) << "nothing left behind by a making that failed";
  MPI_Comm_free(&node);
}

}  // namespace
}  // namespace distarray
