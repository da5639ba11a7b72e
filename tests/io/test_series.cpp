// Series: several arrays and steps per file with attributes, restored by
// name and step into other layouts, storage orders and rank counts;
// compressed arrays; an abandoned step rolled back; concurrent creators of a
// new series lose no step; misuse refused on every rank.  (The kill test is
// tests/cli/killed_series_writer.sh.)

#include <distarray/io/series.hpp>

#include "mpi/pattern.hpp"
#include "mpi/series_steps.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

namespace distarray {
namespace {

using testing::fill_step;
using testing::fresh;
using testing::ranks_text;
using testing::step_mismatches;
using testing::world_rank;
using testing::world_size;

using Left2 = DistArray<double, 2, Kokkos::HostSpace, Kokkos::LayoutLeft>;

/// Three steps of three arrays (one column-major), then each restored into other layouts.
TEST(Series, StepsOfSeveralArraysRestoreAnywhere) {
  const std::string path = fresh("series");
  const std::string p = ranks_text();
  const Index<2> shape2{37, 23};   // ragged for every rank count
  const Index<3> shape3{5, 3, 7};  // fewer rows than ranks at 6
  {
    Series series(path, MPI_COMM_WORLD);
    for (int step = 1; step <= 3; ++step) {
      DistArray<double, 2> u(Layout<2>::parse("cyclic(4),block on " + p + "x1", shape2), MPI_COMM_WORLD);
      DistArray<std::complex<double>, 3> v(Layout<3>::parse("*,*,block on 1x1x" + p, shape3), MPI_COMM_WORLD);
      Left2 w(Layout<2>::parse("block,cyclic(3) on 1x" + p, shape2), MPI_COMM_WORLD);
      fill_step(u, step);
      fill_step(v, step);
      fill_step(w, step);
      series.begin_step(
          std::uint64_t(10 * step),
          {{"time", 0.5 * step}, {"scheme", std::string("adi")}, {"iteration", std::int64_t(step)}});
      series.write("u", u);
      series.write("v", v);
      series.write("w", w, Compression::deflate(4));
      series.commit_step();
    }
  }
  const auto steps = list_steps(path, MPI_COMM_WORLD);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[2].step, 30u);
  EXPECT_TRUE(steps[2].complete);
  ASSERT_EQ(steps[1].attributes.size(), 3u);
  EXPECT_EQ(steps[1].attributes[0].first, "time");
  EXPECT_EQ(std::get<double>(steps[1].attributes[0].second), 1.0);
  EXPECT_EQ(std::get<std::string>(steps[1].attributes[1].second), "adi");
  EXPECT_EQ(std::get<std::int64_t>(steps[1].attributes[2].second), 2);
  ASSERT_EQ(steps[0].arrays.size(), 3u);
  EXPECT_EQ(steps[0].arrays[2].second.storage_order, "column-major");
  EXPECT_NE(steps[0].arrays[2].second.compression.find("shuffle+deflate(4)"), std::string::npos);
  EXPECT_EQ(steps[0].arrays[1].second.element_type, "c128");

  // The latest step by default, into a block-cyclic grid on fewer ranks than the world.
  const int q = std::max(1, testing::world_size() - 1);
  DistArray<double, 2> u(Layout<2>::parse("cyclic(2),cyclic(5) on 1x" + std::to_string(q), shape2),
                         MPI_COMM_WORLD);
  EXPECT_EQ(restore_step(path, "u", u), 30u);
  EXPECT_EQ(step_mismatches(u, 3), 0);
  // A named step, column-major into row-major and back.
  Left2 v_left(Layout<2>::parse("block,block on " + p + "x1", shape2), MPI_COMM_WORLD);
  EXPECT_EQ(restore_step(path, "w", v_left, 20), 20u);
  EXPECT_EQ(step_mismatches(v_left, 2), 0);
  DistArray<double, 2> w(Layout<2>::parse("*,cyclic on 1x" + p, shape2), MPI_COMM_WORLD);
  restore_step(path, "w", w, 10);
  EXPECT_EQ(step_mismatches(w, 1), 0);
  DistArray<std::complex<double>, 3> v(Layout<3>::parse("cyclic,*,* on " + p + "x1x1", shape3),
                                       MPI_COMM_WORLD);
  restore_step(path, "v", v, 20);
  EXPECT_EQ(step_mismatches(v, 2), 0);
  // Appending to the existing series, then the new step is the latest.
  {
    Series series(path, MPI_COMM_WORLD);
    DistArray<double, 2> u4(Layout<2>::parse("block,* on " + p + "x1", shape2), MPI_COMM_WORLD);
    fill_step(u4, 4);
    series.begin_step(40);
    series.write("u", u4);
    series.commit_step();
  }
  EXPECT_EQ(restore_step(path, "u", u), 40u);
  EXPECT_EQ(step_mismatches(u, 4), 0);
}

/// A step begun and abandoned (or left by an error) leaves the file as after the last complete one.
TEST(Series, AbandonedStepIsRolledBack) {
  const std::string path = fresh("series_abandon");
  const Index<2> shape{64, 48};
  DistArray<std::int32_t, 2> a(Layout<2>::parse("block,cyclic(5) on " + ranks_text() + "x1", shape),
                               MPI_COMM_WORLD);
  std::uintmax_t size_after_one = 0;
  {
    Series series(path, MPI_COMM_WORLD);
    fill_step(a, 1);
    series.begin_step(1);
    series.write("a", a);
    series.commit_step();
    if (world_rank() == 0) size_after_one = std::filesystem::file_size(path);
    fill_step(a, 2);
    series.begin_step(2);
    series.write("a", a);
    series.abandon_step();
    if (world_rank() == 0) EXPECT_EQ(std::filesystem::file_size(path), size_after_one);
    series.begin_step(3);
    series.write("a", a);
  }  // destroyed with step 3 open: rolled back
  if (world_rank() == 0) {
    EXPECT_EQ(std::filesystem::file_size(path), size_after_one);
    EXPECT_FALSE(std::filesystem::exists(detail::RollbackJournal::path_of(path)));
  }
  const auto steps = list_steps(path, MPI_COMM_WORLD);
  ASSERT_EQ(steps.size(), 1u);
  Kokkos::deep_copy(a.local(), -1);
  EXPECT_EQ(restore_step(path, "a", a), 1u);
  EXPECT_EQ(step_mismatches(a, 1), 0);
}

TEST(Series, MisuseIsRefusedOnEveryRank) {
  const std::string path = fresh("series_misuse");
  const Index<1> shape{29};
  DistArray<float, 1> a(Layout<1>::parse("cyclic(2) on " + ranks_text(), shape), MPI_COMM_WORLD);
  fill_step(a, 0);
  Series series(path, MPI_COMM_WORLD);
  using testing::expect_throw_on_every_rank;
  expect_throw_on_every_rank([&] { series.write("a", a); }, "needs an open step");
  expect_throw_on_every_rank([&] { series.commit_step(); }, "needs an open step");
  expect_throw_on_every_rank(
      [&] {
        series.begin_step(1, {{"distarray_step", std::int64_t(1)}});
      },
      "reserved 'distarray_'");
  expect_throw_on_every_rank(
      [&] {
        series.begin_step(1, {{"t", 0.5}, {"t", 0.75}});
      },
      "step attribute 't' is given twice");
  expect_throw_on_every_rank([&] { Compression::deflate(12); }, "deflate level 12 is outside 1..9");
  expect_throw_on_every_rank([&] { Series second(path, MPI_COMM_WORLD); }, "another writer has it open");
  series.begin_step(1);
  expect_throw_on_every_rank([&] { series.begin_step(2); }, "step 1 of series");
  expect_throw_on_every_rank([&] { series.write("a/b", a); }, "without '/'");
  series.write("a", a);
  expect_throw_on_every_rank([&] { series.write("a", a); }, "array 'a' is written in step 1 already");
  series.commit_step();
  expect_throw_on_every_rank([&] { save(path, "x", a); }, "is a distarray series");  // (its steps kept below)
  expect_throw_on_every_rank([&] { series.begin_step(1); }, "step 1 is complete in the file already");
  expect_throw_on_every_rank([&] { restore_step(path, "a", a, 7); }, "no step 7");
  expect_throw_on_every_rank([&] { restore_step(path, "b", a, 1); }, "no dataset 'step_1/b'");
  expect_throw_on_every_rank([&] { restore_step(path, "b", a); }, "holds no complete step with an array 'b'");
  DistArray<double, 1> wrong(Layout<1>::parse("block on " + ranks_text(), shape), MPI_COMM_WORLD);
  expect_throw_on_every_rank([&] { restore_step(path, "a", wrong); },
                             "holds f32 elements, the array holds f64");
  const std::string plain = fresh("series_plain");
  save(plain, "x", a);
  expect_throw_on_every_rank([&] { Series s(plain, MPI_COMM_WORLD); }, "not a distarray series");
  expect_throw_on_every_rank([&] { restore_step(plain, "x", a); }, "not a distarray series");
  // A checkpoint whose groups are named as steps are is no series either.
  const std::string step_named = fresh("series_step_named");
  save(step_named, "step_100/x", a);
  expect_throw_on_every_rank([&] { restore_step(step_named, "x", a); }, "not a distarray series");
  expect_throw_on_every_rank([&] { step_array_info(step_named, "x", MPI_COMM_WORLD, 100); },
                             "not a distarray series");
}

/// step_array_info names the step restore_step reads, and what the array is there, before reading it.
TEST(Series, StepArrayInfoNamesTheStepRestoreStepReads) {
  const std::string path = fresh("series_info");
  const Index<2> shape{9, 4};
  DistArray<double, 2> u(Layout<2>::parse("block,* on " + ranks_text() + "x1", shape), MPI_COMM_WORLD);
  DistArray<std::int32_t, 2> v(Layout<2>::parse("*,cyclic on 1x" + ranks_text(), shape), MPI_COMM_WORLD);
  {
    Series series(path, MPI_COMM_WORLD);
    series.begin_step(1);
    series.write("u", u);
    series.write("v", v);
    series.commit_step();
    series.begin_step(2);
    series.write("u", u);
    series.commit_step();
  }
  const StepArrayInfo latest_v = step_array_info(path, "v", MPI_COMM_WORLD);
  EXPECT_EQ(latest_v.step, 1u);  // step 2 holds no v
  EXPECT_EQ(latest_v.array.element_type, "i32");
  EXPECT_EQ(latest_v.array.shape, (std::vector<index_t>{9, 4}));
  EXPECT_EQ(latest_v.array.saved_layout, v.layout().to_string());
  EXPECT_EQ(step_array_info(path, "u", MPI_COMM_WORLD).step, 2u);
  EXPECT_EQ(step_array_info(path, "u", MPI_COMM_WORLD, 1).step, 1u);
  EXPECT_EQ(step_array_info(path, "u", MPI_COMM_WORLD).array.element_type, "f64");
  using testing::expect_throw_on_every_rank;
  expect_throw_on_every_rank([&] { step_array_info(path, "u", MPI_COMM_WORLD, 7); }, "no step 7");
  expect_throw_on_every_rank([&] { step_array_info(path, "w", MPI_COMM_WORLD); },
                             "holds no complete step with an array 'w'");
}

/// The single-array save of a column-major, compressed array, restored row-major.
TEST(Series, PlainSaveTakesColumnMajorAndCompression) {
  const std::string path = fresh("plain_left");
  const Index<2> shape{41, 19};
  Left2 a(Layout<2>::parse("cyclic(3),block on " + ranks_text() + "x1", shape), MPI_COMM_WORLD);
  fill_step(a, 5);
  save(path, "a", a, Compression::deflate(1));
  DistArray<double, 2> b(Layout<2>::parse("block,* on " + ranks_text() + "x1", shape), MPI_COMM_WORLD);
  restore(path, "a", b);
  EXPECT_EQ(step_mismatches(b, 5), 0);
  const auto info = checkpoint_info(path, "a", MPI_COMM_WORLD);
  EXPECT_EQ(info.storage_order, "column-major");
  EXPECT_NE(info.compression.find("chunks"), std::string::npos);
}

TEST(Series, WritersCreatingOneSeriesAtOnceLoseNoStep) {
  const int n = world_size();
  DistArray<double, 1> a(Layout<1>::parse("block on 1", {17}), MPI_COMM_SELF);
  for (int round = 0; round < 5; ++round) {
    const std::string path = fresh("created_at_once_" + std::to_string(round));
    fill_step(a, world_rank());
    // Every rank alone creates the series and writes its own step, retrying while another writes.
    for (int attempt = 0;; ++attempt) {
      try {
        Series s(path, MPI_COMM_SELF);
        s.begin_step(std::uint64_t(world_rank()));
        s.write("u", a);
        s.commit_step();
        break;
      } catch (const CheckpointError& e) {
        ASSERT_NE(std::string(e.what()).find("another writer has it open"), std::string::npos) << e.what();
        ASSERT_LT(attempt, 5000);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const auto steps = list_steps(path, MPI_COMM_WORLD);
    ASSERT_EQ(int(steps.size()), n) << "round " << round;
    DistArray<double, 1> b(Layout<1>::parse("cyclic on " + testing::ranks_text(), {17}), MPI_COMM_WORLD);
    for (int step = 0; step < n; ++step) {
      restore_step(path, "u", b, std::uint64_t(step));
      EXPECT_EQ(step_mismatches(b, step), 0) << "round " << round << ", step " << step;
    }
  }
}

}  // namespace
}  // namespace distarray
