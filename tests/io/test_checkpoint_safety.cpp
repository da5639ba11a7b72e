// Saves that cannot lose data: a temporary file whose data does not read
// back is never committed, two writers to one path never share a temporary,
// files of formats 1 and 2 (older checksums) and 3 (complex named c64) still
// restore, and slabs moved in bands carry the checksum of the whole array.

#include <distarray/io/checkpoint.hpp>
#include <distarray/io/series.hpp>

#include "mpi/partial_files.hpp"
#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <array>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::local_mismatches;
using testing::world_rank;

std::string file(const std::string& stem) { return testing::launch_file(stem); }
std::string p() { return testing::ranks_text(); }
TEST(Checkpoint, DataThatDoesNotReadBackIsNeverCommitted) {
  // What a full disk does behind write calls that report success: the
  // temporary file's data differs from what was written.  commit() reads it
  // back, refuses on every rank, removes it and leaves the previous file.
  const std::string path = file("read_back");
  DistArray<double, 1> a(Layout<1>::parse("cyclic(3) on " + p(), {50}), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  save(path, "old", a);
  std::string partial, message = "(no exception)";
  try {
    CheckpointWriter w(path, MPI_COMM_WORLD);
    w.write("new", a);
    const std::vector<std::string> partials = testing::partial_files_of(path);
    EXPECT_EQ(partials.size(), 1u);
    partial = partials.empty() ? "" : partials[0];
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) {  // find elements 13..15 (the pattern: values 13.0, 14.0, 15.0) and zero 13
      std::fstream io(partial, std::ios::in | std::ios::out | std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(io)), std::istreambuf_iterator<char>());
      const double run[3] = {13, 14, 15};
      const std::size_t at = bytes.find(std::string(reinterpret_cast<const char*>(run), sizeof run));
      EXPECT_NE(at, std::string::npos);  // no ASSERT: the other ranks wait at the barrier below
      io.seekp(std::streamoff(at == std::string::npos ? 0 : at));
      io.write("\0\0\0\0\0\0\0\0", 8);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    w.commit();
  } catch (const CheckpointError& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("dataset 'new' read back differs from what was written"), std::string::npos)
      << message;
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_NE(::access(partial.c_str(), F_OK), 0) << "the temporary file was not removed";
  EXPECT_TRUE(testing::partial_files_of(path).empty());
  DistArray<double, 1> b(Layout<1>::parse("block on " + p(), {50}), MPI_COMM_WORLD);
  restore(path, "old", b);
  EXPECT_EQ(local_mismatches(b), 0);
}

TEST(Checkpoint, WritersToOnePathNeverShareATemporaryFile) {
  const std::string path = file("two_writers");
  DistArray<double, 1> a(Layout<1>::parse("block on " + p(), {30}), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  CheckpointWriter first(path, MPI_COMM_WORLD), second(path, MPI_COMM_WORLD);
  EXPECT_EQ(testing::partial_files_of(path).size(), 2u);
  first.write("first", a);
  second.write("second", a);
  first.commit();
  second.commit();  // the last complete save wins
  EXPECT_TRUE(testing::partial_files_of(path).empty());
  DistArray<double, 1> b(Layout<1>::parse("cyclic on " + p(), {30}), MPI_COMM_WORLD);
  restore(path, "second", b);
  EXPECT_EQ(local_mismatches(b), 0);
  EXPECT_THROW(restore(path, "first", b), CheckpointError);
}

/// Rank 0 rewrites attributes of dataset "a" in `path` as an earlier
/// distarray would have written them (integers in place, strings
/// recreated); the other ranks wait.
void rewrite_attributes(const std::string& path,
                        const std::vector<std::pair<const char*, std::uint64_t>>& numbers,
                        const std::vector<std::pair<const char*, std::string>>& texts = {}) {
  if (world_rank() == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "a", H5P_DEFAULT);
    for (const auto& [name, value] : numbers) {
      const hid_t attr = H5Aopen(ds, name, H5P_DEFAULT);
      H5Awrite(attr, H5T_NATIVE_UINT64, &value);
      H5Aclose(attr);
    }
    for (const auto& [name, text] : texts) {
      H5Adelete(ds, name);
      const hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate(H5S_SCALAR);
      H5Tset_size(type, text.size());
      const hid_t attr = H5Acreate2(ds, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      H5Awrite(attr, type, text.c_str());
      H5Aclose(attr);
      H5Sclose(space);
      H5Tclose(type);
    }
    H5Dclose(ds);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/// Rank 0 zeroes the 36 doubles of dataset "a" in `path`.
void zero_data(const std::string& path) {
  if (world_rank() == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "a", H5P_DEFAULT);
    const double zeros[36] = {};
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros);
    H5Dclose(ds);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Checkpoint, OlderFormatsStillRestore) {
  // Formats 1 and 2 had another checksum (and 1 no seed): rewrite a file as
  // they would have saved it, its checksum computed by their rules.
  const auto layout = Layout<2>::parse("block,* on " + p() + "x1", {9, 4});
  DistArray<double, 2> a(layout, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  for (std::uint64_t version : {1, 2}) {
    const std::string path = file("format" + std::to_string(version));
    save(path, "a", a);
    const std::uint64_t checksum = detail::global_checksum<double, 2>(
        layout, a.grid().coord(), testing::host_block(a).data(), MPI_COMM_WORLD, version);
    rewrite_attributes(path, {{"distarray_checksum", checksum}, {"distarray_format_version", version}});
    DistArray<double, 2> b(Layout<2>::parse("cyclic,cyclic on 1x" + p(), {9, 4}), MPI_COMM_WORLD);
    restore(path, "a", b);
    EXPECT_EQ(local_mismatches(b), 0) << "format " << version;
    // The old checksum is checked too: zeroed data fails it.
    zero_data(path);
    EXPECT_THROW(restore(path, "a", b), CheckpointError) << "format " << version;
  }
}

// Formats up to 3 named complex<double> c64 (numpy's name for two floats)
// and hashed that name into the checksum: such a file restores, verified,
// and reads as c128.
TEST(Checkpoint, Format3ComplexNamedC64StillRestores) {
  using Z = std::complex<double>;
  const auto layout = Layout<2>::parse("block,* on " + p() + "x1", {9, 4});
  DistArray<Z, 2> a(layout, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  const std::string path = file("format3_c64");
  save(path, "a", a);
  EXPECT_EQ(checkpoint_info(path, "a", MPI_COMM_WORLD).element_type, "c128");
  const std::uint64_t checksum = detail::global_checksum<Z, 2>(
      layout, a.grid().coord(), testing::host_block(a).data(), MPI_COMM_WORLD, 3);
  rewrite_attributes(path, {{"distarray_checksum", checksum}, {"distarray_format_version", 3}},
                     {{"distarray_element_type", "c64"}});
  DistArray<Z, 2> b(Layout<2>::parse("cyclic,cyclic on 1x" + p(), {9, 4}), MPI_COMM_WORLD);
  restore(path, "a", b);
  EXPECT_EQ(local_mismatches(b), 0);
  EXPECT_EQ(checkpoint_info(path, "a", MPI_COMM_WORLD).element_type, "c128");
  // The name is in the checksum: the same file claiming format 4 (c128) fails it.
  rewrite_attributes(path, {{"distarray_format_version", 4}});
  EXPECT_THROW(restore(path, "a", b), CheckpointError);
}

/// Saves `a` (larger than a band: its slabs move in several bands, ranks
/// past the rows moving empty ones), checks the stored checksum against one
/// computed over the whole array, restores it into `other`, then zeroes the
/// last element on disk and expects the restore to refuse.
template <class T, int D>
void expect_bands_add_up(const DistArray<T, D>& a, DistArray<T, D>& other, const std::string& path) {
  SCOPED_TRACE(a.layout().to_string());
  save(path, "a", a);
  const std::uint64_t whole = detail::global_checksum<T, D>(a.layout(), a.grid().coord(),
                                                            testing::host_block(a).data(), MPI_COMM_WORLD);
  std::uint64_t stored = 0;
  if (world_rank() == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "a", H5P_DEFAULT);
    const hid_t attr = H5Aopen(ds, "distarray_checksum", H5P_DEFAULT);
    H5Aread(attr, H5T_NATIVE_UINT64, &stored);
    H5Aclose(attr);
    const hid_t space = H5Dget_space(ds),
                one = H5Screate_simple(1, std::array<hsize_t, 1>{1}.data(), nullptr);
    std::array<hsize_t, D> last;
    for (int d = 0; d < D; ++d) last[std::size_t(d)] = hsize_t(a.layout().shape()[d] - 1);
    H5Sselect_elements(space, H5S_SELECT_SET, 1, last.data());
    const std::array<unsigned char, sizeof(T)> zero{};
    const hid_t type = H5Dget_type(ds);
    H5Dwrite(ds, type, one, space, H5P_DEFAULT, zero.data());
    H5Tclose(type);
    H5Sclose(one);
    H5Sclose(space);
    H5Dclose(ds);
    H5Fclose(f);
  }
  MPI_Bcast(&stored, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  EXPECT_EQ(stored, whole);
  if (world_rank() == 0) std::remove((path + ".series").c_str());  // through a series step too
  MPI_Barrier(MPI_COMM_WORLD);
  {
    Series s(path + ".series", MPI_COMM_WORLD);
    s.begin_step(1);
    s.write("a", a);
    s.commit_step();
  }
  restore_step(path + ".series", "a", other);
  EXPECT_EQ(local_mismatches(other), 0);
  EXPECT_THROW(restore(path, "a", other), CheckpointError) << "the last element zeroed on disk";
}

TEST(Checkpoint, SlabsMoveInBandsWithTheChecksumOfTheWhole) {
  // Rows of 560 KB: a band is one row; 7 rows leave ranks without rows at 6 ranks.
  const Index<2> rows{7, 70000};
  DistArray<double, 2> a(Layout<2>::parse("block,* on " + p() + "x1", rows), MPI_COMM_WORLD);
  DistArray<double, 2> b(Layout<2>::parse("*,cyclic(5) on 1x" + p(), rows), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  expect_bands_add_up(a, b, file("bands_f64"));
  // One dimension, 16- and 4-byte elements: bands of 65536 and 262144 elements.
  DistArray<std::complex<double>, 1> z(Layout<1>::parse("cyclic(7) on " + p(), {300001}), MPI_COMM_WORLD);
  DistArray<std::complex<double>, 1> z2(Layout<1>::parse("block on " + p(), {300001}), MPI_COMM_WORLD);
  testing::fill_pattern(z);
  expect_bands_add_up(z, z2, file("bands_c64"));
  DistArray<float, 1> f(Layout<1>::parse("cyclic(100000) on " + p(), {700001}), MPI_COMM_WORLD);
  DistArray<float, 1> f2(Layout<1>::parse("cyclic on " + p(), {700001}), MPI_COMM_WORLD);
  testing::fill_pattern(f);
  expect_bands_add_up(f, f2, file("bands_f32"));
}

}  // namespace
}  // namespace distarray
