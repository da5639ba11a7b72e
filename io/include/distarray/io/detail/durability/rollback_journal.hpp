#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/durability/rollback_journal.hpp is internal: include <distarray/io.hpp>"
#endif
// The undo log of one step of a series, as SQLite's rollback journal: HDF5
// rewrites its metadata in place when a step adds groups and datasets, so a
// writer killed in the middle of a step could leave the earlier steps
// unreadable.  Before a step touches the file, rank 0 copies every byte of
// it that is not raw data of a dataset (the metadata: superblock, object
// headers, B-trees, heaps) into `<file>.distarray-journal`, with the file's
// identity, the step and the file's length (journal_image.hpp), syncs it and
// holds a lock on it.  When the step is complete and synced the journal is
// removed.  The journal is written under another name and renamed into place
// only when whole and synced, so a journal found is never torn.
//
// Only a writer applies a journal: the next writer of the same file, which
// holds the file's lock (so nobody else is inside a step), applies a journal
// it has locked and found still linked at the path, written for this very
// file (device and inode), for a step the file does not hold complete; it
// writes those bytes back and cuts the file to its length.  Any other
// journal there (another file's, damaged, not a regular file) is refused
// with an error and left alone.  Readers never write: they report what
// they find (inspect).  Raw data of earlier steps is never rewritten, so it
// needs no copy.

#include <distarray/io/detail/durability/journal_image.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>

namespace distarray::detail {

class RollbackJournal {
 public:
  RollbackJournal() = default;
  /// Before step `step` writes to the series file `target`, which rank 0
  /// holds open and locked as `file_fd`: saves the metadata of its first
  /// `length` bytes (outside `data`, sorted extents of raw data), syncs and
  /// locks the journal.  Collective.
  static RollbackJournal write(const std::string& target, int file_fd, std::uint64_t step,
                               std::uint64_t length, const Extents& data, MPI_Comm comm);
  /// The step is durable: removes the journal.  Collective.
  void discard(MPI_Comm comm);
  /// Undoes the step (the HDF5 file must be closed).  Collective.
  void roll_back(MPI_Comm comm);

  /// For the writer that holds `target` open and locked as `file_fd` (rank
  /// 0): rolls back the step of a writer of this file that stopped inside
  /// it, unless `committed(step)` (called on rank 0) says the step was
  /// completed, when the journal is only removed.  CheckpointError, with
  /// nothing applied, for a journal another writer holds or one that is not
  /// this file's.  Returns whether it rolled back.  Collective.
  static bool recover(const std::string& target, int file_fd,
                      const std::function<bool(std::uint64_t)>& committed, MPI_Comm comm);

  /// What a reader finds beside `target`, without writing anything.
  struct Finding {
    enum Kind { none, in_progress, unfinished, foreign } kind = none;
    std::uint64_t step = 0;  ///< in_progress, unfinished: the journal's step
    std::string why;         ///< rank 0, foreign: why it is not this file's journal
  };
  /// Collective: rank 0 looks, every rank gets kind and step.
  static Finding inspect(const std::string& target, MPI_Comm comm);

  static std::string path_of(const std::string& target) { return target + ".distarray-journal"; }

 private:
  std::string target_;
  int file_fd_ = -1;  // rank 0: the series file, owned by its writer
  Descriptor fd_;     // rank 0: the journal, locked
};

/// An exclusive open-file-description lock of `fd`; false when another
/// holder has one.  It covers one byte far past any data, so that it never
/// meets the byte-range locks an MPI-IO layer takes on the same file (ROMIO
/// locks what it writes, in the same process), and, unlike fcntl's process
/// locks, survives other descriptors of the file being closed.
bool lock_exclusive(int fd);
/// True when another open file description holds that lock of `fd`'s file.
bool locked_elsewhere(int fd);
/// True when `path` (followed if it is a link and `follow`) names the file
/// open as `fd`, and that file is still linked.
bool names(const std::string& path, int fd, bool follow = false);

}  // namespace distarray::detail
