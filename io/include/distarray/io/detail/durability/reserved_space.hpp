#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/reserved_space.hpp is internal: include <distarray/io.hpp>"
#endif
// Room on disk for what HDF5 writes, reserved before HDF5 allocates it, so
// that a full disk is "No space left on device" on every rank at a
// reservation, with what was asked for: never inside a parallel H5Dcreate
// (which allocates a compressed dataset's chunks), write or flush that fails
// on some ranks only (a hang), nor a write call that claims success.
//
// HDF5 allocates at its end of allocated space (EOA), which its MPI-IO driver
// does not tell; it is at most the larger of the file's size and the end of
// everything reserved before, as long as each reservation bounds what HDF5
// allocates until the next one (space_bound.hpp).  So each reservation runs
// from the file's size to that end plus what is asked for.  Blocks are
// allocated with fallocate(FALLOC_FL_KEEP_SIZE), which does not grow the
// file; where the file system has none (EOPNOTSUPP: NFS v3, many FUSE and
// parallel file systems), by writing a byte into each block, as glibc's
// posix_fallocate does there, which grows the file.  Once the file is
// closed or a step complete, trim_to_recorded_end gives back what was not
// used.

#include <mpi.h>

#include <cstdint>
#include <string>

namespace distarray::detail {

/// What HDF5 may allocate before the next reservation: raw data and metadata.
struct Reservation {
  std::uint64_t data = 0, metadata = 0;
};

/// What a new HDF5 file writes before its first dataset: superblock and
/// root group.
constexpr std::uint64_t first_metadata_bytes = 64 * 1024;

class ReservedSpace {
 public:
  ReservedSpace() = default;
  /// For the file `path`, open as `fd` on rank 0 (-1 elsewhere).
  ReservedSpace(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  /// Allocates the room for `r` past what HDF5 may have allocated; on every
  /// rank CheckpointError "cannot reserve <data> bytes for the data and
  /// <metadata> for its metadata: <OS error>" when that fails.  Collective.
  void reserve(const Reservation& r, MPI_Comm comm);
  /// Gives back what was reserved and not used, after HDF5 flushed its
  /// superblock (trim_to_recorded_end), and starts again from the file's size.
  void trim(MPI_Comm comm);

 private:
  int fd_ = -1;
  std::string path_;
  std::uint64_t reserved_end_ = 0;  // rank 0: the end of the last reservation
};

/// Cuts the HDF5 file open as `fd` (ranks with one) to the end of file its
/// superblock records, where it is longer.  Collective.
void trim_to_recorded_end(int fd, const std::string& path, MPI_Comm comm);

}  // namespace distarray::detail
