// A save given up (its writer destroyed without commit, as when the
// solver's code throws) while its file can no longer be written (a disk that
// fails or fills under HDF5): the previous checkpoint is intact, no
// temporary is left, and nothing is left for MPI_Finalize.  The writer's
// close failed there, and HDF5 1.10 frees a file whose close failed but
// keeps its identifier and closes it again inside MPI_Finalize: this
// executable crashed after its tests had passed.  The library now closes a
// file it gives up without writing to it (Hdf5File::discard).

#include <distarray/io/checkpoint.hpp>

#include "mpi/partial_files.hpp"
#include "mpi/pattern.hpp"
#include "mpi/watchdog.hpp"
#include "mpi/world.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace distarray {
namespace {

/// From now on every write of this process to `path` fails (EBADF): each of
/// its descriptors of the file, MPI-IO's included, is replaced by a read-only one.
void refuse_writes(const std::string& path) {
  struct stat target {};
  ASSERT_EQ(::stat(path.c_str(), &target), 0);
  const int read_only = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(read_only, 0);
  DIR* folder = ::opendir("/proc/self/fd");
  ASSERT_NE(folder, nullptr);
  int replaced = 0;
  while (const dirent* entry = ::readdir(folder)) {
    const int fd = std::atoi(entry->d_name);
    struct stat st {};
    if (entry->d_name[0] != '.' && fd != read_only && fd != ::dirfd(folder) && ::fstat(fd, &st) == 0 &&
        st.st_dev == target.st_dev && st.st_ino == target.st_ino)
      replaced += ::dup2(read_only, fd) == fd;
  }
  ::closedir(folder);
  ::close(read_only);
  EXPECT_GE(replaced, 1);  // at least MPI-IO's own descriptor
}

TEST(FailedClose, AWriterGivenUpOnAFailingDiskLeavesNothingForFinalize) {
  const testing::Watchdog watchdog("a writer destroyed while its file refuses writes", 120);
  const std::string path = testing::launch_file("failed_close");
  DistArray<double, 2> a(Layout<2>::parse("cyclic(3),block on " + testing::ranks_text() + "x1", {37, 11}),
                         MPI_COMM_WORLD);
  testing::fill_pattern(a);
  save(path, "old", a);
  std::string partial;
  {
    CheckpointWriter w(path, MPI_COMM_WORLD);
    w.write("new", a);
    const std::vector<std::string> partials = testing::partial_files_of(path);
    EXPECT_EQ(partials.size(), 1u);  // no ASSERT: the other ranks would wait in the destructor
    partial = partials.empty() ? "" : partials[0];
    refuse_writes(partial);
  }                             // HDF5 still holds the dataset's metadata, which it can no longer write
  MPI_Barrier(MPI_COMM_WORLD);  // rank 0 removed the temporary
  EXPECT_NE(::access(partial.c_str(), F_OK), 0) << "the temporary '" << partial << "' is left";
  DistArray<double, 2> back(a.layout(), MPI_COMM_WORLD);
  restore(path, "old", back);
  EXPECT_EQ(testing::local_mismatches(back), 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace distarray
