// Saves, restores and series steps given different arguments on different
// ranks are refused on every rank before anything is written
// (core/src/same_arguments.hpp).  Without the check, dataset names or
// compressions that differed hung the save, different names hung a
// restore (one rank failed alone), different paths saved each rank's part
// into a file of its own, and different step numbers committed both steps.
// Each case runs under a watchdog and ends with a barrier every rank must reach.

#include <distarray/io/checkpoint.hpp>
#include <distarray/io/series.hpp>

#include "mpi/expect_agreed.hpp"
#include "mpi/partial_files.hpp"
#include "mpi/pattern.hpp"
#include "mpi/series_steps.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace distarray {
namespace {

using testing::expect_agreed;
using testing::first_or;
using testing::world_size;

TEST(CollectiveArguments, SavesAndRestoresOfDifferentArgumentsAreRefusedOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::string path = testing::fresh("same_arguments"), other = testing::fresh("same_arguments_other");
  DistArray<double, 2> a(Layout<2>::parse("block,* on " + testing::ranks_text() + "x1", {9, 5}),
                         MPI_COMM_WORLD);
  testing::fill_pattern(a);
  const auto partials = testing::partial_files_of(path);  // (a killed earlier launch may have left some)
  expect_agreed<UsageError>(
      "paths", [&] { save(first_or(path, other), "u", a); }, "ranks disagree on the file (this rank: ");
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(other));
  EXPECT_EQ(testing::partial_files_of(path), partials) << "no temporary file made";
  expect_agreed<UsageError>(
      "dataset names", [&] { save(path, first_or<std::string>("u", "v"), a); },
      "ranks disagree on the dataset's name");
  expect_agreed<UsageError>(
      "compressions", [&] { save(path, "u", a, first_or(Compression{}, Compression::deflate(4))); },
      "ranks disagree on dataset 'u''s compression");
  EXPECT_FALSE(std::filesystem::exists(path)) << "nothing is committed";
  save(path, "u", a);
  DistArray<double, 2> b(a.layout(), MPI_COMM_WORLD);
  expect_agreed<UsageError>(
      "restored names", [&] { restore(path, first_or<std::string>("u", "w"), b); },
      "ranks disagree on the dataset's name");
  restore(path, "u", b);
  EXPECT_EQ(testing::local_mismatches(b), 0);
}

TEST(CollectiveArguments, SeriesStepsOfDifferentArgumentsAreRefusedOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks";
  const std::string path = testing::fresh("same_arguments_series");
  DistArray<double, 1> a(Layout<1>::parse("cyclic(2) on " + testing::ranks_text(), {17}), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  Series s(path, MPI_COMM_WORLD);
  expect_agreed<UsageError>(
      "steps", [&] { s.begin_step(first_or(1, 2)); }, "ranks disagree on the step (this rank: ");
  expect_agreed<UsageError>(
      "attributes",
      [&] {
        s.begin_step(3, {{"time", first_or(0.5, 0.25)}});
      },
      "ranks disagree on the step's attributes");
  // Lists whose names and values once read alike: a string holding a
  // second attribute, an integer and a double of the same value.
  expect_agreed<UsageError>(
      "one attribute or two",
      [&] {
        s.begin_step(3, first_or<Attributes>({{"a", std::string("x' b='y")}},
                                             {{"a", std::string("x")}, {"b", std::string("y")}}));
      },
      "ranks disagree on the step's attributes");
  expect_agreed<UsageError>(
      "attribute types",
      [&] {
        s.begin_step(3, first_or<Attributes>({{"n", std::int64_t{1}}}, {{"n", 1.0}}));
      },
      "ranks disagree on the step's attributes");
  s.begin_step(3, {{"time", 0.5}});  // refused before it began: the series takes the step
  s.write("u", a);
  s.commit_step();
  const auto steps = list_steps(path, MPI_COMM_WORLD);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].step, 3u);
  EXPECT_TRUE(steps[0].complete);
}

}  // namespace
}  // namespace distarray
