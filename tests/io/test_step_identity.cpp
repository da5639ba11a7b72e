// What names a step of a series: its group, its distarray_step attribute
// and, from format 5, the checksum of its arrays, which holds the step
// number: a step renamed in the file (group and attribute together) no
// longer restores as the other step, and steps of format 4, whose checksum
// has no step, still restore verified.  A step whose group and attribute
// disagree (damaged) is refused before anything is written for it.

#define DISTARRAY_INCLUDING_DETAIL  // checksum.hpp, for the format 4 checksum
#include <distarray/io/detail/checksum/checksum.hpp>
#include <distarray/io/series.hpp>

#include "mpi/series_steps.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace distarray {
namespace {

using testing::world_rank;

Layout<2> layout() { return Layout<2>::parse("cyclic(2),block on " + testing::ranks_text() + "x1", {17, 9}); }

void write_steps(const std::string& path, int count) {
  Series s(path, MPI_COMM_WORLD);
  DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
  for (int step = 0; step < count; ++step) {
    testing::fill_step(u, step);
    s.begin_step(std::uint64_t(step));
    s.write("u", u);
    s.commit_step();
  }
}

/// Rank 0 sets the uint64 attribute `name` of object `object` in `path` to `value`.
void set_attribute(hid_t file, const char* object, const char* name, std::uint64_t value) {
  const hid_t o = H5Oopen(file, object, H5P_DEFAULT);
  H5Adelete(o, name);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(o, name, H5T_NATIVE_UINT64, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, H5T_NATIVE_UINT64, &value);
  H5Aclose(a);
  H5Sclose(space);
  H5Oclose(o);
}

std::uint64_t get_attribute(hid_t file, const char* object, const char* name) {
  std::uint64_t value = 0;
  const hid_t a = H5Aopen_by_name(file, object, name, H5P_DEFAULT, H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_UINT64, &value);
  H5Aclose(a);
  return value;
}

TEST(StepIdentity, ARenamedStepNoLongerRestoresAsTheOtherStep) {
  const std::string path = testing::fresh("step_renamed");
  write_steps(path, 2);
  if (world_rank() == 0) {  // step 1 renamed to step 7, its header rewritten to match
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    EXPECT_GE(H5Lmove(f, "step_1", f, "step_7", H5P_DEFAULT, H5P_DEFAULT), 0);
    set_attribute(f, "step_7", "distarray_step", 7);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  DistArray<double, 2> v(layout(), MPI_COMM_WORLD);
  testing::expect_throw_on_every_rank([&] { restore_step(path, "u", v, 7); }, "checksum mismatch");
  EXPECT_EQ(restore_step(path, "u", v, 0), 0u);
  EXPECT_EQ(testing::step_mismatches(v, 0), 0);
}

TEST(StepIdentity, Format4StepsStillRestoreVerified) {
  const std::string path = testing::fresh("step_format4");
  write_steps(path, 2);
  if (world_rank() == 0) {  // step 1 as format 4 wrote it: the same checksum without the step in the seed
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const std::vector<index_t> shape{17, 9};
    const std::uint64_t format5 = get_attribute(f, "step_1/u", "distarray_checksum");
    set_attribute(f, "step_1/u", "distarray_checksum",
                  format5 - detail::checksum_seed("f64", shape, 1) + detail::checksum_seed("f64", shape));
    set_attribute(f, "step_1/u", "distarray_format_version", 4);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  DistArray<double, 2> v(Layout<2>::parse("block,* on " + testing::ranks_text() + "x1", {17, 9}),
                         MPI_COMM_WORLD);
  EXPECT_EQ(restore_step(path, "u", v, 1), 1u);
  EXPECT_EQ(testing::step_mismatches(v, 1), 0);
}

TEST(StepIdentity, ADamagedStepIsRefusedBeforeItsJournal) {
  const std::string path = testing::fresh("step_damaged");
  write_steps(path, 2);
  if (world_rank() == 0) {  // step 1's group claims step 5
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    set_attribute(f, "step_1", "distarray_step", 5);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  Series s(path, MPI_COMM_WORLD);
  testing::expect_throw_on_every_rank([&] { s.begin_step(1); }, "is damaged");
  EXPECT_FALSE(std::filesystem::exists(path + ".distarray-journal")) << "a journal for a step never begun";
  DistArray<double, 2> u(layout(), MPI_COMM_WORLD);
  testing::fill_step(u, 2);
  s.begin_step(2);  // no step is left open
  s.write("u", u);
  s.commit_step();
  DistArray<double, 2> v(layout(), MPI_COMM_WORLD);
  EXPECT_EQ(restore_step(path, "u", v), 2u);
  EXPECT_EQ(testing::step_mismatches(v, 2), 0);
}

}  // namespace
}  // namespace distarray
