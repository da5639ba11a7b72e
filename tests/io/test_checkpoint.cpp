// Checkpoints: save with one layout, restore with others; every kind of bad
// input raises CheckpointError on every rank; an unfinished save leaves the
// previous file as it was.

#include <distarray/io/checkpoint.hpp>
#include <distarray/io/series.hpp>

#include "mpi/partial_files.hpp"
#include "mpi/pattern.hpp"
#include "mpi/raw_damage.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <complex>
#include <fstream>
#include <string>

namespace distarray {
namespace {

using testing::world_rank;
using testing::world_size;

std::string file(const std::string& stem) { return testing::launch_file(stem); }

using testing::local_mismatches;
template <class T, int D>
void fill(DistArray<T, D>& a) {
  testing::fill_pattern(a);
}

std::string p() { return testing::ranks_text(); }

/// Saves with `from`, restores into each of `to`, element by element.
template <class T, int D>
void round_trip(const std::string& from, const std::vector<std::string>& to, const Index<D>& shape) {
  const std::string path = file("round_trip");
  DistArray<T, D> a(Layout<D>::parse(from, shape), MPI_COMM_WORLD);
  fill(a);
  save(path, "data", a);
  for (const auto& layout : to) {
    SCOPED_TRACE(from + " -> " + layout);
    DistArray<T, D> b(Layout<D>::parse(layout, shape), MPI_COMM_WORLD);
    restore(path, "data", b);
    ASSERT_EQ(local_mismatches(b), 0);
  }
}

TEST(Checkpoint, RestoresIntoAnyLayout) {
  const std::string n = p();
  round_trip<double, 2>(
      "cyclic(2),block on " + n + "x1",
      {"block,* on " + n + "x1", "*,cyclic(3) on 1x" + n, "block,block on 1x1", "cyclic,cyclic(4) on 1x" + n},
      {13, 11});
  round_trip<std::complex<double>, 2>("block,* on " + n + "x1", {"*,block on 1x" + n}, {7, 9});
  round_trip<std::int32_t, 1>("cyclic(3) on " + n, {"block on " + n, "cyclic on 1"}, {50});
  round_trip<std::int64_t, 1>("block on " + n, {"cyclic(2) on " + n}, {3});  // N < P on most launches
  round_trip<float, 3>("block,cyclic,* on " + n + "x1x1",
                       {"*,*,block on 1x1x" + n, "cyclic(2),block,block on 1x1x1"}, {5, 6, 7});
  round_trip<double, 2>("block,block on 1x1", {"block,cyclic on 1x" + n}, {0, 4});  // an empty array
}

TEST(Checkpoint, ManyArraysAndSteps) {
  const std::string path = file("steps");
  const auto layout = Layout<2>::parse("block,cyclic on " + p() + "x1", {6, 5});
  DistArray<double, 2> u(layout, MPI_COMM_WORLD);
  DistArray<float, 1> v(Layout<1>::parse("cyclic on " + p(), {9}), MPI_COMM_WORLD);
  fill(u);
  fill(v);
  {
    CheckpointWriter w(path, MPI_COMM_WORLD);
    w.write("step_0/u", u);
    w.write("step_1/u", u);
    w.write("v", v);
    w.commit();
  }
  DistArray<double, 2> u2(Layout<2>::parse("*,block on 1x" + p(), {6, 5}), MPI_COMM_WORLD);
  restore(path, "step_1/u", u2);
  EXPECT_EQ(local_mismatches(u2), 0);
  DistArray<float, 1> v2(Layout<1>::parse("block on 1", {9}), MPI_COMM_WORLD);
  restore(path, "v", v2);
  EXPECT_EQ(local_mismatches(v2), 0);
  const DatasetInfo info = checkpoint_info(path, "step_0/u", MPI_COMM_WORLD);
  EXPECT_EQ(info.shape, (std::vector<index_t>{6, 5}));
  EXPECT_EQ(info.element_type, "f64");
  EXPECT_EQ(info.saved_layout, layout.to_string());
  // Listed as a checkpoint's arrays, not as a series' steps (groups named as steps are).
  const auto arrays = list_arrays(path, MPI_COMM_WORLD);
  ASSERT_EQ(arrays.size(), 3u);
  EXPECT_EQ(arrays[0].first, "step_0/u");
  EXPECT_EQ(arrays[1].first, "step_1/u");
  EXPECT_EQ(arrays[2].first, "v");
  EXPECT_EQ(arrays[2].second.element_type, "f32");
  EXPECT_TRUE(list_steps(path, MPI_COMM_WORLD).empty());
}

TEST(Checkpoint, AnUnfinishedSaveLeavesThePreviousFile) {
  const std::string path = file("atomic");
  DistArray<double, 1> a(Layout<1>::parse("block on " + p(), {20}), MPI_COMM_WORLD);
  fill(a);
  save(path, "old", a);
  {
    CheckpointWriter w(path, MPI_COMM_WORLD);
    w.write("new", a);
    EXPECT_EQ(testing::partial_files_of(path).size(), 1u);
  }  // never committed
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_TRUE(testing::partial_files_of(path).empty()) << "the temporary file was not removed";
  DistArray<double, 1> b(Layout<1>::parse("cyclic on " + p(), {20}), MPI_COMM_WORLD);
  restore(path, "old", b);
  EXPECT_EQ(local_mismatches(b), 0);
  EXPECT_THROW(restore(path, "new", b), CheckpointError);
}

/// Restoring must raise CheckpointError containing every fragment, on every rank.
template <class F>
void expect_checkpoint_error(F&& f, const std::vector<std::string>& fragments) {
  std::string message = "(no exception)";
  try {
    f();
  } catch (const CheckpointError& e) {
    message = e.what();
  }
  for (const auto& fragment : fragments) EXPECT_NE(message.find(fragment), std::string::npos) << message;
  MPI_Barrier(MPI_COMM_WORLD);  // no rank is left inside a collective
}

TEST(Checkpoint, BadInputRaisesOnEveryRank) {
  const std::string good = file("good");
  const auto layout = Layout<2>::parse("block,* on " + p() + "x1", {8, 6});
  DistArray<double, 2> a(layout, MPI_COMM_WORLD);
  fill(a);
  save(good, "a", a);

  expect_checkpoint_error([&] { restore(file("missing"), "a", a); },
                          {file("missing"), "No such file or directory", "dataset 'a'"});
  expect_checkpoint_error([&] { restore(good, "b", a); }, {good, "no dataset 'b'"});
  expect_checkpoint_error([&] { restore(good, "group/a", a); }, {good, "no dataset 'group/a'"});

  const std::string text = file("not_hdf5");
  if (world_rank() == 0) std::ofstream(text) << "this is not an HDF5 file\n";
  MPI_Barrier(MPI_COMM_WORLD);
  expect_checkpoint_error([&] { restore(text, "a", a); }, {text, "not an HDF5 file", "dataset 'a'"});

  DistArray<float, 2> f32(layout, MPI_COMM_WORLD);
  expect_checkpoint_error([&] { restore(good, "a", f32); },
                          {good, "dataset 'a'", "holds f64 elements, the array holds f32"});
  DistArray<double, 2> wide(Layout<2>::parse("block,* on " + p() + "x1", {8, 7}), MPI_COMM_WORLD);
  expect_checkpoint_error([&] { restore(good, "a", wide); },
                          {good, "has shape 8x6, the array has shape 8x7"});
  DistArray<double, 3> cube(Layout<3>::parse("block,*,* on " + p() + "x1x1", {8, 6, 1}), MPI_COMM_WORLD);
  expect_checkpoint_error([&] { restore(good, "a", cube); },
                          {good, "has shape 8x6, the array has shape 8x6x1"});

  // A truncated copy.
  const std::string truncated = file("truncated");
  if (world_rank() == 0) {
    std::ifstream in(good, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(truncated, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() / 2));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_checkpoint_error([&] { restore(truncated, "a", a); }, {truncated, "dataset 'a'"});

  // Flipped bytes in the data: the checksum notices.
  const std::string flipped = file("flipped");
  save(flipped, "a", a);
  const char flip = 0x5a;
  testing::overwrite_raw_data(flipped, "a", 17, &flip, 1);
  expect_checkpoint_error([&] { restore(flipped, "a", a); }, {flipped, "dataset 'a'", "checksum mismatch"});

  // Crafted attributes (found by fuzz_checkpoint_meta): an array where one
  // value belongs overran the reader's memory; a string where an integer belongs.
  const auto replace_attribute = [&](const std::string& path, const char* key, hid_t type, hsize_t count) {
    save(path, "a", a);
    if (world_rank() == 0) {
      const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
      const hid_t ds = H5Dopen2(f, "a", H5P_DEFAULT);
      H5Adelete(ds, key);
      const hid_t space = H5Screate_simple(1, &count, nullptr);
      const hid_t attr = H5Acreate2(ds, key, type, space, H5P_DEFAULT, H5P_DEFAULT);
      const std::vector<char> zeros(64, 0);
      H5Awrite(attr, type, zeros.data());
      H5Aclose(attr);
      H5Sclose(space);
      H5Dclose(ds);
      H5Fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  };
  const std::string array = file("attribute_array");
  replace_attribute(array, "distarray_checksum", H5T_NATIVE_UINT64, 2);
  expect_checkpoint_error([&] { restore(array, "a", a); }, {array, "'distarray_checksum' holds 2 values"});
  const std::string text_version = file("attribute_text");
  const hid_t string_type = H5Tcopy(H5T_C_S1);
  H5Tset_size(string_type, 8);
  replace_attribute(text_version, "distarray_format_version", string_type, 1);
  H5Tclose(string_type);
  expect_checkpoint_error([&] { restore(text_version, "a", a); },
                          {text_version, "'distarray_format_version' is not an integer"});
}

}  // namespace
}  // namespace distarray
