// Saves that cannot lose data: a temporary file whose data does not read
// back is never committed, two writers to one path never share a temporary,
// and files of the previous format (checksum without the type-and-shape
// seed) still restore.

#include <distarray/io/checkpoint.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

namespace distarray {
namespace {

using testing::mismatches;
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
    partial = w.temporary_path();
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
  DistArray<double, 1> b(Layout<1>::parse("block on " + p(), {50}), MPI_COMM_WORLD);
  restore(path, "old", b);
  EXPECT_EQ(mismatches(b), 0);
}

TEST(Checkpoint, WritersToOnePathNeverShareATemporaryFile) {
  const std::string path = file("two_writers");
  DistArray<double, 1> a(Layout<1>::parse("block on " + p(), {30}), MPI_COMM_WORLD);
  testing::fill_pattern(a);
  CheckpointWriter first(path, MPI_COMM_WORLD), second(path, MPI_COMM_WORLD);
  EXPECT_NE(first.temporary_path(), second.temporary_path());
  first.write("first", a);
  second.write("second", a);
  first.commit();
  second.commit();  // the last complete save wins
  DistArray<double, 1> b(Layout<1>::parse("cyclic on " + p(), {30}), MPI_COMM_WORLD);
  restore(path, "second", b);
  EXPECT_EQ(mismatches(b), 0);
  EXPECT_THROW(restore(path, "first", b), CheckpointError);
}

TEST(Checkpoint, FormatOneFilesStillRestore) {
  // Format 1's checksum had no seed: rewrite a format 2 file as format 1 would have saved it.
  const std::string path = file("format1");
  const auto layout = Layout<2>::parse("block,* on " + p() + "x1", {9, 4});
  DistArray<double, 2> a(layout, MPI_COMM_WORLD);
  testing::fill_pattern(a);
  save(path, "a", a);
  if (world_rank() == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, "a", H5P_DEFAULT);
    std::uint64_t checksum = 0, version = 1;
    hid_t attr = H5Aopen(ds, "distarray_checksum", H5P_DEFAULT);
    H5Aread(attr, H5T_NATIVE_UINT64, &checksum);
    checksum -= detail::checksum_seed("f64", {9, 4});
    H5Awrite(attr, H5T_NATIVE_UINT64, &checksum);
    H5Aclose(attr);
    attr = H5Aopen(ds, "distarray_format_version", H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_UINT64, &version);
    H5Aclose(attr);
    H5Dclose(ds);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  DistArray<double, 2> b(Layout<2>::parse("cyclic,cyclic on 1x" + p(), {9, 4}), MPI_COMM_WORLD);
  restore(path, "a", b);
  EXPECT_EQ(mismatches(b), 0);
}

}  // namespace
}  // namespace distarray
