#pragma once
// HDF5 checkpoints of DistArrays (ARCHITECTURE Sec. 6).
//
//   distarray::CheckpointWriter w("run.h5", MPI_COMM_WORLD);   // collective
//   w.write("step_100/u", u);                                  // any layout, D, type
//   w.write("step_100/v", v);
//   w.commit();                      // only now is run.h5 replaced, atomically
//
//   distarray::restore("run.h5", "step_100/u", u2);   // any layout, any rank count
//
// Each array is a dataset of its global shape and native element type (c128:
// the compound {r, i} that h5py reads as complex128), so h5dump and h5py
// read it as a plain array.  Attributes: distarray_layout, distarray_grid,
// distarray_element_type, distarray_format_version, distarray_library_version
// and distarray_checksum (order-independent, so any layout can verify it).
// distarray_storage_order says whether the local blocks were row- or
// column-major.  Every rank writes and reads one contiguous range of rows
// of the dataset with independent MPI-IO (collective only for compressed
// datasets, which parallel HDF5 writes no other way), and a plan moves the data between
// those ranges and the array's layout (detail/transfer/file_slab.hpp).  A save cannot lose the previous file:
// it writes a temporary file of a unique name next to it (created exclusively), reserves the space before
// writing, agrees on every write's result across ranks, reads the data back and checks its checksum, syncs
// it, and only then renames it over the old one (docs/reliability.md).  A crash or any error leaves the
// previous file and removes the temporary. Errors — missing file or dataset, not HDF5, truncated, wrong type
// or shape, checksum mismatch, a full disk — are CheckpointError on every rank, naming file and dataset.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#endif

#include <distarray/core/dist_array.hpp>
#include <distarray/io/compression.hpp>
#include <distarray/io/detail/durability/reserved_space.hpp>
#include <distarray/io/detail/durability/temporary_file.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>
#include <distarray/io/detail/transfer/array_io.hpp>
#include <distarray/io/element_type.hpp>
#include <distarray/io/restore_options.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#endif

namespace distarray {

/// Writes arrays into a new checkpoint; `path` is replaced only by commit().
class CheckpointWriter {
 public:
  /// Collective over `comm`; the arrays written must live on its ranks.
  /// CheckpointError where `path` is a series (series.hpp): replacing it
  /// would lose its steps.
  CheckpointWriter(std::string path, MPI_Comm comm);
  /// Without commit(): the temporary file is removed and `path` is untouched.
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  /// Writes `a` as dataset `name` (slashes make groups, e.g. "step_10/u"):
  /// any layout, storage order and memory space; compressed if asked.  Collective.
  template <class T, int D, class M, class O>
  void write(const std::string& name, const DistArray<T, D, M, O>& a, const Compression& compression = {}) {
    // Read back before commit: write calls were seen to report success on a full disk.
    read_backs_.push_back(detail::write_array(
        file_, name, a, compression, [this](const detail::Reservation& r) { space_.reserve(r, comm_); }));
  }

  /// Closes the file, reads every dataset back and checks its checksum, syncs
  /// it and renames it into place.  Collective; on any error (every rank
  /// throws it) the previous file is untouched and the temporary removed.
  void commit();

 private:
  std::string path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  detail::TemporaryFile temporary_;
  detail::ReservedSpace space_;  // in the temporary file
  detail::Hdf5File file_;
  std::vector<detail::ReadBack> read_backs_;
};

/// One array into a new checkpoint file.
template <class T, int D, class M, class O>
void save(const std::string& path, const std::string& name, const DistArray<T, D, M, O>& a,
          const Compression& compression = {}) {
  CheckpointWriter w(path, a.comm());
  w.write(name, a, compression);
  w.commit();
}

/// What a checkpoint holds under `name`.
struct DatasetInfo {
  std::vector<index_t> shape;
  std::string element_type;   ///< f32 f64 c128 i32 i64
  std::string saved_layout;   ///< empty for datasets not written by distarray
  std::string storage_order;  ///< "row-major" or "column-major"; empty when not recorded
  std::string compression;    ///< e.g. "shuffle+deflate(4), chunks 512x4096"; empty when none
};

/// Reads dataset metadata (collective); CheckpointError when missing or unreadable.
DatasetInfo checkpoint_info(const std::string& path, const std::string& name, MPI_Comm comm);

/// Every dataset of a checkpoint by its path from the root (e.g.
/// "step_100/u"), groups in name order, with what checkpoint_info says of
/// it.  Collective; writes nothing.
std::vector<std::pair<std::string, DatasetInfo>> list_arrays(const std::string& path, MPI_Comm comm);

namespace detail {
/// What the open `file` holds under dataset path `name` (checkpoint_info's answer).
DatasetInfo dataset_info(const Hdf5File& file, const std::string& name);
}  // namespace detail

/// Fills `into` (any layout, any rank count) from dataset `name`.  Collective.
/// A dataset without a checksum (not written by distarray) is read with a
/// warning on stderr: nothing verifies it.  When the data cannot be read or
/// its checksum differs, CheckpointError, and `into` may hold part of it
/// (a layout other than the file's is filled row group by row group).
/// `options.verify_checksum = false` skips the checksum (restore_options.hpp).
template <class T, int D, class M, class O>
void restore(const std::string& path, const std::string& name, DistArray<T, D, M, O>& into,
             const RestoreOptions& options = {}) {
  detail::Hdf5File file;
  try {
    file = detail::Hdf5File::open(path, into.comm());
  } catch (const CheckpointError& e) {
    throw CheckpointError(std::string(e.what()) + " (restoring dataset '" + name + "')");
  }
  const auto ds = file.open_dataset(name);
  detail::read_array(file, ds.get(), name, into, options);
}

}  // namespace distarray
