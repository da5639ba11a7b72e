// Opening an HDF5 file through MPI-IO while noting the descriptors MPI-IO
// opens for it, and discarding a file without writing to it (hdf5_file.hpp,
// Hdf5File::discard).

#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace distarray::detail {

namespace {

/// This process's descriptors of the file `id` (device and inode), from /proc/self/fd.
std::vector<int> descriptors_of(const struct stat& id) {
  std::vector<int> found;
  DIR* folder = ::opendir("/proc/self/fd");
  if (!folder) return found;
  while (const dirent* entry = ::readdir(folder)) {
    const int fd = std::atoi(entry->d_name);
    struct stat st {};
    if (entry->d_name[0] != '.' && fd != ::dirfd(folder) && ::fstat(fd, &st) == 0 && st.st_dev == id.st_dev &&
        st.st_ino == id.st_ino)
      found.push_back(fd);
  }
  ::closedir(folder);
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

void Hdf5File::open_noting_descriptors(const std::string& name, unsigned flags, bool create) {
  struct stat id {};
  const bool known = ::stat(name.c_str(), &id) == 0;
  const std::vector<int> before = known ? descriptors_of(id) : std::vector<int>{};
  const H5Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_fapl_mpio(fapl.get(), comm_, MPI_INFO_NULL);
  file_ = H5Id(create ? H5Fcreate(name.c_str(), flags, H5P_DEFAULT, fapl.get())
                      : H5Fopen(name.c_str(), flags, fapl.get()),
               H5Fclose);
  writable_ = flags != H5F_ACC_RDONLY;
  if (!known || file_.get() < 0) return;
  const std::vector<int> after = descriptors_of(id);
  mpi_io_descriptors_.clear();
  std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                      std::back_inserter(mpi_io_descriptors_));
}

void Hdf5File::discard() noexcept {
  if (file_.get() < 0) return;
  const int memory = ::memfd_create("distarray-discarded", MFD_CLOEXEC);
  for (const int fd : mpi_io_descriptors_)
    if (memory >= 0) ::dup2(memory, fd);
  if (memory >= 0) ::close(memory);
  H5Fclose(file_.release());
  writable_ = false;
}

Hdf5File::~Hdf5File() {
  if (writable_) discard();
}

Hdf5File& Hdf5File::operator=(Hdf5File&& o) noexcept {
  if (this == &o) return *this;
  if (writable_) discard();
  file_ = std::move(o.file_);  // closes a read-only file held before
  path_ = std::move(o.path_);
  comm_ = o.comm_;
  long_name_ = std::move(o.long_name_);
  writable_ = std::exchange(o.writable_, false);
  mpi_io_descriptors_ = std::move(o.mpi_io_descriptors_);
  return *this;
}

}  // namespace distarray::detail
