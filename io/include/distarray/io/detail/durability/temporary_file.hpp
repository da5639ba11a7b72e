#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/temporary_file.hpp is internal: include <distarray/io.hpp>"
#endif
// The file-system half of a safe save: a temporary file next to the target,
// its name unique per save (two jobs saving to one path never share it),
// created exclusively (an existing file or symbolic link there is never
// written through), space reserved before data is written (a full disk is a
// real OS error, not a write call that claims success: reserved_space.hpp),
// synced, and renamed
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
  /// and reserves room for HDF5's first metadata (reserved_space.hpp).
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
  /// The file, open for reading and writing on rank 0; -1 elsewhere.
  int descriptor() const { return fd_; }
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

}  // namespace distarray::detail
