#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/rollback_journal.hpp is internal: include <distarray/io.hpp>"
#endif
// The undo log of one step of a series, as SQLite's rollback journal: HDF5
// rewrites its metadata in place when a step adds groups and datasets, so a
// writer killed in the middle of a step could leave the earlier steps
// unreadable.  Before a step touches the file, rank 0 copies every byte of
// it that is not raw data of a dataset (the metadata: superblock, object
// headers, B-trees, heaps) into `<file>.distarray-journal` with the file's
// length, syncs it and holds an open-file-description lock on it.  When the
// step is complete and synced the journal is removed.  Whoever opens the
// series next and finds a journal nobody holds writes those bytes back and
// cuts the file to its length: the file is again exactly as after the last
// complete step.  Raw data of earlier steps is never rewritten, so it needs
// no copy.  The journal is written under another name and renamed into place
// only when whole and synced, so a journal found is never torn.

#include <distarray/io/detail/hdf5_file.hpp>

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

using Extents = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

class RollbackJournal {
 public:
  RollbackJournal() = default;
  /// Rank 0 saves the bytes of `target`'s first `length` outside `data`
  /// (sorted extents of raw data), syncs and locks the journal.  Collective.
  static RollbackJournal write(const std::string& target, std::uint64_t length, const Extents& data,
                               MPI_Comm comm);
  /// The step is durable: removes the journal.  Collective.
  void discard(MPI_Comm comm);
  /// Undoes the step (the HDF5 file must be closed).  Collective.
  void roll_back(MPI_Comm comm);
  bool active() const { return active_; }

  /// Rolls back the step of a writer that stopped inside it, if its journal
  /// is there; CheckpointError when a running writer holds it.  Returns
  /// whether it rolled back.  Collective.
  static bool recover(const std::string& target, MPI_Comm comm);
  static std::string path_of(const std::string& target) { return target + ".distarray-journal"; }

 private:
  std::string target_;
  Descriptor fd_;  // rank 0: the journal, locked
  bool active_ = false;
};

/// An exclusive open-file-description lock on `fd` (whole file); false when
/// another holder has one.  Unlike fcntl's process locks it survives other
/// descriptors of the file being closed (MPI-IO opens and closes its own).
bool lock_exclusive(int fd);

}  // namespace distarray::detail
