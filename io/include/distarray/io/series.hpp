#pragma once
// A checkpoint file as a series of steps, each holding several named arrays
// and attributes (docs/checkpoint-format.md, "Series").
//
//   distarray::Series series("run.h5", MPI_COMM_WORLD);     // creates or appends
//   series.begin_step(100, {{"time", 0.25}, {"scheme", "adi"}});
//   series.write("u", u);                                    // any layout, D, type, storage order
//   series.write("v", v, distarray::Compression::deflate(4));
//   series.commit_step();                  // only now does step 100 count
//
//   auto step = distarray::restore_step("run.h5", "u", u2);  // latest complete step, any layout
//   distarray::restore_step("run.h5", "v", v2, 100);         // a named step
//
// Step n is group `step_<n>` (attribute distarray_step = n, the user's
// attributes, and distarray_complete = 1 written last, after its arrays are
// flushed and synced); each array is a dataset of the global shape, as
// CheckpointWriter writes them, so h5py and h5dump read it plainly.
// Nothing saved is lost: a writer killed at any moment leaves every earlier
// complete step restorable (rollback_journal.hpp: the next writer undoes the
// killed step; readers never write); a step without its marker is ignored
// with a warning.  One writer at a time (a second one gets CheckpointError);
// concurrent creators of a new series share one file.
// Errors are CheckpointError on every rank.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_SERIES
#endif

#include <distarray/io/attribute.hpp>
#include <distarray/io/checkpoint.hpp>
#include <distarray/io/detail/durability/reserved_space.hpp>
#include <distarray/io/detail/durability/rollback_journal.hpp>
#include <distarray/io/detail/durability/temporary_file.hpp>
#include <distarray/io/detail/series/series_reading.hpp>
#include <distarray/io/detail/transfer/array_io.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_SERIES
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_SERIES
#endif

namespace distarray {

/// The group of step `step`: "step_<step>".
std::string step_group(std::uint64_t step);

class Series {
 public:
  /// Opens `path` to append steps, creating an empty series where there is
  /// no file.  Rolls back a step that a killed writer left.  Collective.
  Series(std::string path, MPI_Comm comm);
  /// A step begun and not committed is rolled back.
  ~Series();
  Series(const Series&) = delete;
  Series& operator=(const Series&) = delete;

  /// Starts step `step` with `attributes` (names not starting with
  /// "distarray_"); CheckpointError if the file holds it complete already,
  /// UsageError while another step is open.  Collective.
  void begin_step(std::uint64_t step, const Attributes& attributes = {});

  /// Writes `a` as array `name` of the open step.  Collective.
  template <class T, int D, class M, class O>
  void write(const std::string& name, const DistArray<T, D, M, O>& a, const Compression& compression = {}) {
    require_step("write");
    check_array_name(name);
    detail::write_array(
        file_, step_group(*step_) + "/" + name, a, compression,
        [this](const detail::Reservation& r) { space_.reserve(r, comm_); }, step_);
  }

  /// Makes the open step visible: its data flushed and synced, then its
  /// completion marker, synced again.  Collective.
  void commit_step();
  /// Undoes the open step: the file is as after the last committed one.
  void abandon_step();

  const std::string& path() const { return path_; }

 private:
  void require_step(const char* what) const;
  /// UsageError unless `name` is a valid array name not yet written in the open step.
  void check_array_name(const std::string& name) const;
  void reopen();
  /// Rank 0 opens and locks the file at path_, created exclusively when
  /// missing (concurrent creators share one file), and re-checks that the
  /// path still names what it locked.
  void open_locked();
  std::string path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  detail::Descriptor lock_;      // rank 0: the file, locked against a second writer
  detail::ReservedSpace space_;  // in the file, through lock_
  detail::Hdf5File file_;
  detail::RollbackJournal journal_;
  std::optional<std::uint64_t> step_;
  std::uint64_t step_metadata_ = 0;  // the open step group's metadata bound (space_bound.hpp)
};

/// One step of a series as the file holds it.
struct StepInfo {
  std::uint64_t step = 0;
  bool complete = false;
  Attributes attributes;
  std::vector<std::pair<std::string, DatasetInfo>> arrays;
  std::string damage;  ///< why the step group is not a valid step (never restored), or empty
};

/// The steps of a series file in increasing order (collective); writes
/// nothing (read_series).  Empty for a plain checkpoint (a file without the
/// series attribute Series creates), whatever its groups are named.
std::vector<StepInfo> list_steps(const std::string& path, MPI_Comm comm);

/// Which step restore_step(path, name, into, step) reads and what array
/// `name` is there: what a caller needs to make `into` (Python's restore_step
/// without a dtype).  Collective; warns and throws as restore_step.
struct StepArrayInfo {
  std::uint64_t step = 0;
  DatasetInfo array;
};
StepArrayInfo step_array_info(const std::string& path, const std::string& name, MPI_Comm comm,
                              std::optional<std::uint64_t> step = std::nullopt);

/// Fills `into` (any layout, storage order and rank count) from array
/// `name` of step `step`, by default the latest complete one holding it; returns the
/// step read.  restore()'s arguments with the step before the options (the
/// one that series add).  Collective.  As restore(): on a read error or a checksum
/// mismatch `into` may hold part of the data; `options` as restore()'s.
/// CheckpointError for a plain checkpoint (no series attribute), whatever
/// its groups are named.
template <class T, int D, class M, class O>
std::uint64_t restore_step(const std::string& path, const std::string& name, DistArray<T, D, M, O>& into,
                           std::optional<std::uint64_t> step = std::nullopt,
                           const RestoreOptions& options = {}) {
  return detail::read_series(path, into.comm(), [&](const detail::Hdf5File& file) {
    std::uint64_t chosen = 0;
    const std::string dataset = detail::choose_step(file, step, name, chosen) + "/" + name;
    const auto ds = file.open_dataset(dataset);
    detail::read_array(file, ds.get(), dataset, into, options);
    return chosen;
  });
}

}  // namespace distarray
