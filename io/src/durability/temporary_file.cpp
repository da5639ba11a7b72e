#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/durability/reserved_space.hpp>
#include <distarray/io/detail/durability/temporary_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

namespace distarray::detail {

namespace {

std::string folder_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

/// Why `target` cannot be saved to, or empty: the checks a user should hear
/// about before any data is written.
std::string name_problem(const std::string& target) {
  const std::string name = std::filesystem::path(target).filename().string();
  if (name.empty() || name == "." || name == "..") return "names a folder, not a file";
  const std::string dir = folder_of(target);
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (name.size() > std::size_t(name_max > 0 ? name_max : NAME_MAX))
    return "the file name is " + std::to_string(name.size()) + " bytes long; this file system allows " +
           std::to_string(name_max > 0 ? name_max : NAME_MAX);
  if (target.size() >= PATH_MAX) return "the path is longer than " + std::to_string(PATH_MAX - 1) + " bytes";
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return "folder '" + dir + "' does not exist";
  if (::access(dir.c_str(), W_OK) != 0) return "folder '" + dir + "' is not writable";
  if (::stat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return "is a folder";
  return {};
}

/// A short unique sibling name: the target's first bytes (whole UTF-8
/// characters), then 64 random bits.  Short, because MPI-IO components copy
/// file names into fixed buffers.
std::string temporary_name(const std::string& target, std::mt19937_64& random) {
  const std::filesystem::path p(target);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(random()));
  const std::string prefix = utf8_prefix(p.filename().string(), 24);
  return (p.parent_path() / (prefix + "." + hex + ".distarray-partial")).string();
}

}  // namespace

bool sync_folder_of(const std::string& path) {
  const int dir = ::open(folder_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool ok = dir >= 0 && ::fsync(dir) == 0;
  if (dir >= 0) ::close(dir);
  return ok;
}

void TemporaryFile::agree(MPI_Comm comm, int error, const std::string& what) const {
  detail::agree<CheckpointError>(comm, error != 0,
                                 "checkpoint '" + target_ + "': " + what + ": " + std::strerror(error));
}

TemporaryFile::TemporaryFile(const std::string& target, MPI_Comm comm) : target_(target) {
  const bool root = rank_of(comm) == 0;
  std::string problem = root ? name_problem(target) : "";
  detail::agree<CheckpointError>(comm, !problem.empty(), "checkpoint '" + target + "': " + problem);
  int error = 0;
  if (root) {
    std::random_device device;
    std::mt19937_64 random((std::uint64_t(device()) << 32) ^ device() ^ std::uint64_t(::getpid()));
    for (int attempt = 0; attempt < 100; ++attempt) {
      path_ = temporary_name(target, random);
      fd_ = ::open(path_.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_RDWR | O_CLOEXEC, 0666);
      if (fd_ >= 0 || errno != EEXIST) break;
    }
    struct stat st {};
    if (fd_ < 0 || ::fstat(fd_, &st) != 0) error = errno ? errno : EIO;
    device_ = st.st_dev;
    inode_ = st.st_ino;
  }
  agree(comm, error, "cannot create a temporary file next to it");
  // A full disk fails here, before HDF5 holds the file.
  ReservedSpace(fd_, target).reserve({0, first_metadata_bytes}, comm);
  int length = int(path_.size());
  DISTARRAY_MPI_CHECK(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
  path_.resize(std::size_t(length));
  DISTARRAY_MPI_CHECK(MPI_Bcast(path_.data(), length, MPI_CHAR, 0, comm));
}

TemporaryFile& TemporaryFile::operator=(TemporaryFile&& o) noexcept {
  std::swap(target_, o.target_);
  std::swap(path_, o.path_);
  std::swap(fd_, o.fd_);
  std::swap(device_, o.device_);
  std::swap(inode_, o.inode_);
  std::swap(committed_, o.committed_);
  return *this;
}

TemporaryFile::~TemporaryFile() {
  if (fd_ < 0) return;  // not rank 0, or moved from
  ::close(fd_);
  if (!committed_) ::unlink(path_.c_str());
}

void TemporaryFile::check_unchanged(MPI_Comm comm) const {
  int error = 0;
  if (fd_ >= 0) {
    struct stat st {};
    if (::lstat(path_.c_str(), &st) != 0)
      error = errno;
    else if (!S_ISREG(st.st_mode) || st.st_dev != device_ || st.st_ino != inode_)
      error = EEXIST;
  }
  agree(comm, error, "the temporary file '" + path_ + "' was replaced while saving");
}

void TemporaryFile::sync(MPI_Comm comm) const {
  agree(comm, fd_ >= 0 && ::fsync(fd_) != 0 ? errno : 0, "syncing the written file failed");
}

void TemporaryFile::commit(MPI_Comm comm) {
  int error = 0;
  if (fd_ >= 0 && std::rename(path_.c_str(), target_.c_str()) != 0) error = errno;
  agree(comm, error, "cannot move the finished file into place");
  committed_ = true;
  // Make the rename itself durable.
  agree(comm, fd_ >= 0 && !sync_folder_of(target_) ? errno : 0,
        "the file is in place, but syncing its folder failed");
}

bool TemporaryFile::commit_new(MPI_Comm comm) {
  int error = 0, moved = 0;
  if (fd_ >= 0) {
    if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) == 0) {
      moved = 1;
    } else if (errno == EINVAL || errno == ENOSYS) {  // no exclusive rename here: link, then unlink
      if (::link(path_.c_str(), target_.c_str()) == 0)
        moved = 1, ::unlink(path_.c_str());
      else if (errno != EEXIST)
        error = errno;
    } else if (errno != EEXIST) {
      error = errno;
    }
  }
  agree(comm, error, "cannot move the new file into place");
  DISTARRAY_MPI_CHECK(MPI_Bcast(&moved, 1, MPI_INT, 0, comm));
  if (!moved) return false;
  committed_ = true;
  agree(comm, fd_ >= 0 && !sync_folder_of(target_) ? errno : 0,
        "the file is in place, but syncing its folder failed");
  return true;
}

void require_regular_file(const std::string& path, MPI_Comm comm) {
  std::string problem;
  if (rank_of(comm) == 0) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      problem = std::string("cannot open it: ") + std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
      problem = "not a regular file (a folder, FIFO or device)";
    else if (::access(path.c_str(), R_OK) != 0)
      problem = "not readable";
  }
  detail::agree<CheckpointError>(comm, !problem.empty(), "checkpoint '" + path + "': " + problem);
}

}  // namespace distarray::detail
