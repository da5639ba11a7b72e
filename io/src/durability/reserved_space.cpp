#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>
#include <distarray/io/detail/durability/reserved_space.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace distarray::detail {

namespace {

/// posix_fallocate's way where the file system has no fallocate: a byte
/// written into every block of the range that holds no data yet (a block
/// whose byte reads non-zero is allocated already).  Only ranges HDF5 has not
/// written are reserved, so a zero byte there overwrites nothing.  The file
/// may grow (trim_to gives the room back); errno or 0.
int allocate_by_writing(int fd, std::uint64_t offset, std::uint64_t bytes) {
  struct stat st {};
  struct statfs fs {};
  if (::fstat(fd, &st) != 0 || ::fstatfs(fd, &fs) != 0) return errno;
  // The file system's block, as glibc takes it: NFS reports its transfer size as st_blksize.
  const std::uint64_t block = fs.f_bsize > 0 ? std::min<std::uint64_t>(std::uint64_t(fs.f_bsize), 4096) : 512;
  for (std::uint64_t at = offset; at < offset + bytes; at = (at / block + 1) * block) {
    char c = 0;
    if (at < std::uint64_t(st.st_size) && ::pread(fd, &c, 1, off_t(at)) == 1 && c != 0) continue;
    errno = 0;
    if (::pwrite(fd, "", 1, off_t(at)) != 1) return errno ? errno : ENOSPC;
  }
  return 0;
}

/// Blocks for [offset, offset + bytes) without growing the file where the
/// file system has fallocate, by writing where it has not; errno or 0.
int allocate(int fd, std::uint64_t offset, std::uint64_t bytes) {
  if (bytes == 0 || ::fallocate(fd, FALLOC_FL_KEEP_SIZE, off_t(offset), off_t(bytes)) == 0) return 0;
  if (errno != EOPNOTSUPP && errno != ENOSYS) return errno;
  return allocate_by_writing(fd, offset, bytes);
}

/// The end-of-file address an HDF5 file's superblock at offset 0 records
/// (File Format Specification 3.0, II.A: at byte 40 in version 0, 44 in
/// version 1, 28 in versions 2 and 3; 8-byte offsets); 0 when unknown.
std::uint64_t recorded_end(int fd) {
  unsigned char sb[52] = {};
  static constexpr unsigned char signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (::pread(fd, sb, sizeof sb, 0) != ssize_t(sizeof sb) || std::memcmp(sb, signature, 8) != 0) return 0;
  const unsigned version = sb[8];
  if ((version <= 1 && sb[13] != 8) || (version >= 2 && sb[9] != 8) || version > 3) return 0;
  const std::size_t base_at = version == 0 ? 24 : version == 1 ? 28 : 12;
  std::uint64_t base = 0, end = 0;
  std::memcpy(&base, sb + base_at, 8);  // little-endian, as HDF5 stores addresses
  std::memcpy(&end, sb + (version <= 1 ? base_at + 16 : 28), 8);
  return base == 0 ? end : 0;
}

}  // namespace

void trim_to_recorded_end(int fd, const std::string& path, MPI_Comm comm) {
  struct stat st {};
  int error = 0;
  if (fd >= 0 && ::fstat(fd, &st) == 0) {
    const std::uint64_t end = recorded_end(fd);
    // Also at the same length: that frees blocks fallocate kept past the end.
    if (end > 0 && std::uint64_t(st.st_size) >= end && ::ftruncate(fd, off_t(end)) != 0) error = errno;
  }
  detail::agree<CheckpointError>(
      comm, error != 0,
      "checkpoint '" + path + "': cannot give back the room reserved past its end: " + std::strerror(error));
}

void ReservedSpace::reserve(const Reservation& r, MPI_Comm comm) {
  int error = 0;
  if (fd_ >= 0) {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      error = errno;
    } else {
      const std::uint64_t from = std::uint64_t(st.st_size);
      const std::uint64_t to = std::max(from, reserved_end_) + r.data + r.metadata;
      error = allocate(fd_, from, to - from);
      if (error == 0) reserved_end_ = to;
    }
  }
  detail::agree<CheckpointError>(comm, error != 0,
                                 "checkpoint '" + path_ + "': cannot reserve " + std::to_string(r.data) +
                                     " bytes for the data and " + std::to_string(r.metadata) +
                                     " for its metadata: " + std::strerror(error));
}

void ReservedSpace::trim(MPI_Comm comm) {
  trim_to_recorded_end(fd_, path_, comm);
  reserved_end_ = 0;
}

}  // namespace distarray::detail
