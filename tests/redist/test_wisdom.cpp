// Wisdom: a second plan takes the cost model and the automatic engine from
// the file the first one wrote, without measuring; stale and corrupt files
// are ignored and replaced; a file that is not wisdom is never written; the
// environment names the file when the options do not.

#include <distarray/redist/plan.hpp>
#include <distarray/redist/wisdom.hpp>

#include "mpi/pattern.hpp"
#include "mpi/settled.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace distarray {
namespace {

using testing::local_mismatches;
using testing::pattern_value;
using testing::ranks_text;
using testing::world_rank;
using testing::world_size;

/// A wisdom file private to this launch, removed first.
std::string fresh_file(const std::string& stem) {
  const std::string path = "wisdom_" + stem + "_np" + ranks_text() + ".txt";
  if (world_rank() == 0) std::remove(path.c_str());
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::string& path, const std::string& text) {
  if (world_rank() == 0) std::ofstream(path) << text;
  MPI_Barrier(MPI_COMM_WORLD);
}

/// A duplicate of the world: no calibration cached on it yet.
struct FreshComm {
  MPI_Comm comm;
  FreshComm() { MPI_Comm_dup(MPI_COMM_WORLD, &comm); }
  ~FreshComm() { MPI_Comm_free(&comm); }
};

TEST(Wisdom, TheSecondProcessTakesTheCostModelFromTheFile) {
  PlanOptions options;
  options.wisdom = fresh_file("cost");
  const auto l = Layout<2>::parse("block,* on " + ranks_text() + "x1", {40, 12});
  const auto t = Layout<2>::parse("*,block on 1x" + ranks_text(), {40, 12});
  FreshComm first, second;
  Wisdom w1(options.wisdom, first.comm);
  const CostModel measured = choose_strategy<2>(l, t, first.comm, options, 8, &w1).model;
  Wisdom w2(options.wisdom, second.comm);
  const CostModel read = choose_strategy<2>(l, t, second.comm, options, 8, &w2).model;
  if (world_size() == 1) {  // nothing to measure on one rank: nothing kept
    EXPECT_EQ(read.source, "defaults");
    return;
  }
  EXPECT_EQ(measured.source, "calibrated");
  EXPECT_EQ(read.source, "wisdom");
  EXPECT_EQ(read.ts, measured.ts);  // written with 17 digits: exact
  EXPECT_EQ(read.te, measured.te);
  if (world_rank() == 0)
    EXPECT_NE(contents(options.wisdom).find("cost\t" + ranks_text() + "\t"), std::string::npos);
}

TEST(Wisdom, TheSecondPlanTakesTheEngineWithoutMeasuring) {
  // Row-major into column-major blocks: the receive side is typed (runs of
  // 64 doubles or more), the send side a local transpose, so the automatic
  // engine measures alltoallv against datatypes (and, ranks on one node, the
  // shared window).
  const Index<2> shape{64 * world_size() + 5, 21};
  const auto from = Layout<2>::parse("block,* on " + ranks_text() + "x1", shape);
  const auto to = Layout<2>::parse("*,block on 1x" + ranks_text(), shape);
  PlanOptions options;
  options.wisdom = fresh_file("engine");
  DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutRight> a(from, MPI_COMM_WORLD);
  DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft> b(to, MPI_COMM_WORLD);
  a.fill([&](const Index<2>& g) { return pattern_value<double, 2>(g, shape); });
  using P = Plan<double, 2, Kokkos::HostSpace, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
  std::string settled;
  {
    P first(from, to, MPI_COMM_WORLD, options);
    if (first.report().settled) GTEST_SKIP() << "nothing to measure here";
    for (int i = 0; i < testing::patient_executions && testing::measuring(first); ++i)
      first.execute(a, b);  // a warm-up, then rounds of trials
    ASSERT_TRUE(first.report().settled) << first.report().exchange;
    settled = first.report().exchange;
  }
  P second(from, to, MPI_COMM_WORLD, options);
  EXPECT_EQ(second.report().exchange, settled);  // decided before any execution
  EXPECT_TRUE(second.report().settled);
  Kokkos::deep_copy(b.local(), -1.0);
  second.execute(a, b);
  EXPECT_EQ(local_mismatches(b), 0);
  if (world_rank() == 0) EXPECT_NE(contents(options.wisdom).find("engine\t"), std::string::npos);
}

TEST(Wisdom, StaleAndCorruptFilesAreIgnoredAndReplaced) {
  const std::string path = fresh_file("stale");
  Wisdom current(path, MPI_COMM_WORLD);
  current.record_cost(99, 1e-6, 1e-10, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  const std::string good = contents(path), header = good.substr(0, good.find('\n') + 1);
  MPI_Barrier(MPI_COMM_WORLD);  // every rank has read it before rank 0 writes again
  ASSERT_EQ(header.rfind("distarray-wisdom\t", 0), 0u);
  for (const std::string& bad : {std::string("distarray-wisdom\t0\told\tformat\ncost\t99\t1e-6 1e-10\n"),
                                 header + "cost\t99\tfast slow\n", header + "cost\t99\t-1 1\n",
                                 header + "no tab at all\n", header + "engine\tk\tteleport\n"}) {
    SCOPED_TRACE(bad);
    write(path, bad);
    Wisdom w(path, MPI_COMM_WORLD);
    EXPECT_FALSE(w.cost(99));
    w.record_cost(7, 2e-6, 3e-10, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const Wisdom after(path, MPI_COMM_WORLD);
    EXPECT_FALSE(after.cost(99));  // the bad entries are gone
    ASSERT_TRUE(after.cost(7));
    EXPECT_EQ(after.cost(7)->second, 3e-10);
  }
}

TEST(Wisdom, AFileThatIsNotWisdomIsNeverWritten) {
  const std::string path = fresh_file("foreign");
  const std::string data = "results of a week of runs\n1 2 3\n";
  write(path, data);
  Wisdom w(path, MPI_COMM_WORLD);
  w.record_cost(3, 1e-6, 1e-10, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_EQ(contents(path), data);
  EXPECT_TRUE(w.cost(3));  // kept in memory for this process's plans
}

TEST(Wisdom, TheEnvironmentNamesTheFileWhenTheOptionsDoNot) {
  PlanOptions options;
  EXPECT_EQ(Wisdom::for_options(options, MPI_COMM_WORLD), nullptr);
  setenv("DISTARRAY_WISDOM", "from_environment.txt", 1);
  const auto w = Wisdom::for_options(options, MPI_COMM_WORLD);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->path(), "from_environment.txt");
  options.wisdom = "from_options.txt";
  EXPECT_EQ(Wisdom::for_options(options, MPI_COMM_WORLD)->path(), "from_options.txt");
  unsetenv("DISTARRAY_WISDOM");
}

}  // namespace
}  // namespace distarray
