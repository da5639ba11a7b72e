#pragma once
// How restore() and restore_step() read an array.
//
//   distarray::restore("run.h5", "u", u2, {.verify_checksum = false});
//   distarray::restore_step("run.h5", "u", u2, std::nullopt, {.verify_checksum = false});

namespace distarray {

struct RestoreOptions {
  /// Hash what was read and compare it with the checksum saved with it
  /// (CheckpointError on a mismatch).  Off, a restore skips that pass over
  /// the data -- on a restore from the page cache it costs about as much as
  /// the read itself (README, "Checkpoints") -- and nothing detects a file
  /// damaged since it was saved: for files the storage already verifies, as
  /// HDF5's H5Pset_edc_check(H5Z_DISABLE_EDC) turns off its own filters' check.
  bool verify_checksum = true;
};

}  // namespace distarray
