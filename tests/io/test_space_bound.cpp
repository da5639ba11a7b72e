// The room a series step reserves is measured from its arrays and attributes
// (space_bound.hpp), not a fixed 64 KiB: what HDF5 adds for a step with many
// long attributes and many arrays stays within the bounds, and on a small
// file system (a tmpfs this test mounts; skipped where it cannot) such a
// step is refused at its reservation on every rank, with no journal left,
// where a fixed headroom let HDF5's flush meet the full disk.

#define DISTARRAY_INCLUDING_DETAIL  // space_bound.hpp
#include <distarray/io/detail/durability/space_bound.hpp>
#include <distarray/io/series.hpp>

#include "mpi/pattern.hpp"
#include "mpi/watchdog.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace distarray {
namespace {

using testing::world_rank;

std::uint64_t size_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? std::uint64_t(st.st_size) : 0;
}

/// `count` string attributes of `bytes` bytes each.
Attributes long_attributes(int count, std::size_t bytes) {
  Attributes a;
  for (int k = 0; k < count; ++k)
    a.emplace_back("parameter_" + std::to_string(k), std::string(bytes, 'a' + k % 26));
  return a;
}

TEST(SpaceBound, WhatHdf5AddsForAStepStaysWithinTheBounds) {
  const std::string path = testing::launch_file("space_bound");
  std::filesystem::remove(path);
  DistArray<double, 2> a(Layout<2>::parse("block,* on " + testing::ranks_text() + "x1", {12, 5}),
                         MPI_COMM_WORLD);
  testing::fill_pattern(a);
  { const Series created(path, MPI_COMM_WORLD); }  // an empty series
  const Attributes attributes = long_attributes(40, 4000);
  const int arrays = 30;
  std::uint64_t bound = 0;
  {
    const auto before = detail::Hdf5File::open(path, MPI_COMM_WORLD);
    bound = detail::step_metadata_bound(before, step_group(0), detail::sizes_of(attributes));
  }
  const std::uint64_t start = size_of(path);
  {
    Series s(path, MPI_COMM_WORLD);
    s.begin_step(0, attributes);
    for (int k = 0; k < arrays; ++k) s.write("array_with_a_longer_name_" + std::to_string(k), a);
    s.commit_step();
  }
  // Each array's bound, taken once the step group holds every name (no smaller than when it was written).
  const auto after = detail::Hdf5File::open(path, MPI_COMM_WORLD);
  const auto sizes = detail::array_attribute_sizes(a.layout().to_string(), a.layout().grid().to_string(),
                                                   StorageOrder::row_major, "f64");
  for (int k = 0; k < arrays; ++k)
    bound += detail::array_metadata_bound(
        after, step_group(0) + "/array_with_a_longer_name_" + std::to_string(k), sizes, 2, 0);
  const std::uint64_t data = arrays * 12 * 5 * sizeof(double);
  const std::uint64_t metadata = size_of(path) - start - data;
  EXPECT_LE(metadata, bound);
  EXPECT_GT(metadata, 64u * 1024) << "the step should need more than the fixed headroom it was given before";
}

/// A tmpfs of `kib` KiB mounted at a folder of this launch on rank 0 (one node), for the scope.
class SmallDisk {
 public:
  explicit SmallDisk(int kib) : folder_(std::filesystem::absolute("small_disk_" + testing::launch_name())) {
    int ok = 1;
    if (world_rank() == 0) {
      ::umount(folder_.c_str());
      std::filesystem::create_directories(folder_);
      const std::string options = "size=" + std::to_string(kib) + "k";
      ok = ::mount("tmpfs", folder_.c_str(), "tmpfs", 0, options.c_str()) == 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mounted_ = ok != 0;
  }
  ~SmallDisk() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (mounted_ && world_rank() == 0) ::umount(folder_.c_str());
  }
  bool mounted() const { return mounted_; }
  std::string file(const std::string& name) const { return folder_ + "/" + name; }

 private:
  std::string folder_;
  bool mounted_ = false;
};

TEST(SpaceBound, AStepWhoseAttributesDoNotFitIsRefusedAtItsReservation) {
  const SmallDisk disk(512);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
  const testing::Watchdog watchdog("a step on a full disk", 120);
  const std::string path = disk.file("series.h5");
  DistArray<double, 2> a(Layout<2>::parse("block,* on " + testing::ranks_text() + "x1", {40, 30}),
                         MPI_COMM_WORLD);
  testing::fill_pattern(a);
  std::string message = "(no exception)";
  {
    Series s(path, MPI_COMM_WORLD);
    s.begin_step(0);
    s.write("u", a);
    s.commit_step();
    try {  // 100 attributes of 4000 bytes: about 400 KiB of metadata, twice that reserved
      s.begin_step(1, long_attributes(100, 4000));
      s.write("u", a);
      s.commit_step();
    } catch (const CheckpointError& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot reserve"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(path + ".distarray-journal"));
  DistArray<double, 2> back(a.layout(), MPI_COMM_WORLD);
  EXPECT_EQ(restore_step(path, "u", back), 0u);
  EXPECT_EQ(testing::local_mismatches(back), 0);
}

}  // namespace
}  // namespace distarray
