#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/temporary_file.hpp is internal: include <distarray/io.hpp>"
#endif
// The file-system half of a safe save: a temporary file next to the target,
// its name unique per save (two jobs saving to one path never share it),
// created exclusively (an existing file or symbolic link there is never
// written through), space reserved before data is written (a full disk is a
// real OS error, not a write call that claims success), synced, and renamed
// over the target only when the caller has verified it.  Rank 0 does the
// file-system calls; every function is collective and throws the same
// CheckpointError, with the OS error text, on every rank.

#include <mpi.h>

#include <cstdint>
#include <string>

namespace distarray::detail {

class TemporaryFile {
 public:
  TemporaryFile() = default;
  /// Checks the target's name (length, not a directory, folder writable),
  /// then creates `<dir>/<name prefix>.<16 hex digits>.distarray-partial`
  /// and reserves room for HDF5's first metadata (reserve_space).
  TemporaryFile(const std::string& target, MPI_Comm comm);
  /// Removes the temporary file unless it was committed.  Not collective.
  ~TemporaryFile();
  TemporaryFile(TemporaryFile&& o) noexcept { *this = std::move(o); }
  TemporaryFile& operator=(TemporaryFile&& o) noexcept;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& path() const { return path_; }

  /// Fails unless the temporary is still the regular file this object created
  /// (not replaced by a link or another file since).
  void check_unchanged(MPI_Comm comm) const;
  /// Reserves `bytes` at `offset` on disk: ENOSPC here, before the data is
  /// written, is the error a full disk gives.  File systems without
  /// fallocate are left to the read-back check.
  void reserve(std::uint64_t offset, std::uint64_t bytes, MPI_Comm comm) const;
  /// fsync of the file.
  void sync(MPI_Comm comm) const;
  /// Renames the file over `target_` and syncs the folder.
  void commit(MPI_Comm comm);
  /// Moves the file to `target_` only where nothing is there yet (an
  /// exclusive rename, or a hard link where the file system has none) and
  /// syncs the folder; false, the temporary left to the destructor, when
  /// something was there first.
  bool commit_new(MPI_Comm comm);

 private:
  /// Throws "checkpoint '<target>': <what>: <strerror(error)>" on every rank
  /// when `error` (errno on rank 0) is set there.
  void agree(MPI_Comm comm, int error, const std::string& what) const;
  std::string target_, path_;
  int fd_ = -1;                           // rank 0 only
  std::uint64_t device_ = 0, inode_ = 0;  // of the file created
  bool committed_ = false;
};

/// fsync of the folder holding `path`: makes a rename, link or unlink in it durable.
bool sync_folder_of(const std::string& path);

/// Throws CheckpointError on every rank unless `path` names a readable
/// regular file (a FIFO or device would block or stream forever).
void require_regular_file(const std::string& path, MPI_Comm comm);

/// Allocates [offset, offset + bytes) of the file open as `fd` on the ranks
/// that pass one (fd < 0: nothing), offset 0 meaning from the file's end
/// without growing it (data HDF5 places as it writes, compressed chunks),
/// and then `metadata_headroom` bytes past that range, also without growing
/// the file, for the metadata HDF5 writes after it (object headers,
/// attributes, a step's completion marker): a full disk is "No space left on
/// device" here, on every rank, not in a flush that parallel HDF5 leaves
/// half done on some ranks (a hang) or in a write that claims success.
void reserve_space(int fd, std::uint64_t offset, std::uint64_t bytes, const std::string& path, MPI_Comm comm);
/// The room kept past reserved data for HDF5's metadata: a step with one
/// array grows it by about 2 KiB.
constexpr std::uint64_t metadata_headroom = 64 * 1024;

}  // namespace distarray::detail
