#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/transfer/array_io.hpp is internal: include <distarray/io.hpp>"
#endif
// One DistArray to or from one dataset, with distarray's attributes and the
// layout-independent checksum (docs/checkpoint-format.md).  Used by
// CheckpointWriter, restore and Series; the data moves through file slabs
// (file_slab.hpp).

#include <distarray/io/compression.hpp>
#include <distarray/io/detail/checksum/global_checksum.hpp>
#include <distarray/io/detail/durability/reserved_space.hpp>
#include <distarray/io/detail/durability/space_bound.hpp>
#include <distarray/io/detail/transfer/file_slab.hpp>
#include <distarray/io/detail/transfer/row_groups.hpp>
#include <distarray/io/detail/transfer/slab_transfer.hpp>
#include <distarray/io/element_type.hpp>
#include <distarray/io/restore_options.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace distarray::detail {

/// What restore() and checkpoint_info() read of a dataset before its data.
struct DatasetMeta {
  std::vector<index_t> shape;
  std::string element_type, saved_layout, storage_order;
  std::uint64_t format_version = 0;  ///< 0: not written by distarray
  std::optional<std::uint64_t> checksum;
  std::string compression;            ///< "" when stored without filters
  std::optional<std::uint64_t> step;  ///< format 5, in a series step: the step its checksum covers
};

/// Reads and cross-checks the dataset's metadata: its stored type against
/// distarray_element_type, the format version against this library's.
DatasetMeta read_meta(const Hdf5File& file, hid_t dataset, const std::string& name);

/// Prints (rank 0) that dataset `name` has no checksum, so nothing was verified.
void warn_unverified(const std::string& path, const std::string& name, MPI_Comm comm);

/// "8x6", or "a scalar".
std::string shape_text(const std::vector<index_t>& shape);

/// Writes distarray's attributes of an array on dataset `ds`.
void set_array_attributes(const Hdf5File& file, hid_t ds, const std::string& layout, const std::string& grid,
                          StorageOrder order, const std::string& type, std::uint64_t checksum);
/// The names and value sizes of those attributes (space_bound.hpp).
AttributeSizes array_attribute_sizes(const std::string& layout, const std::string& grid, StorageOrder order,
                                     const std::string& type);

/// Reads the dataset back and compares its checksum with the one written.
using ReadBack = std::function<void(const Hdf5File&)>;

/// Writes `a` as dataset `name` of `file` (collective over a.comm(), which
/// must hold the file's ranks); `step`: the series step it belongs to, which
/// its checksum covers.  `reserve` is called with the room its data
/// and metadata may take (space_bound.hpp) before HDF5 allocates any of it:
/// a full disk fails there, on every rank, not inside parallel HDF5 (which
/// allocates a compressed dataset's chunks when it creates it).  Returns how
/// to check a read-back of it.
template <class T, int D, class M, class O>
ReadBack write_array(const Hdf5File& file, const std::string& name, const DistArray<T, D, M, O>& a,
                     const Compression& compression, const std::function<void(const Reservation&)>& reserve,
                     std::optional<std::uint64_t> step = std::nullopt) {
  const FileSlab<T, D> slab = to_file_slab(a);
  const std::string type = element_type_name<T>(), layout = a.layout().to_string();
  const auto shape = as_vector(a.layout().shape());
  const auto chunk = compression.chunk_shape(slab.layout, sizeof(T));
  file.agree_on_dataset(name, shape, type, chunk, compression.level);
  const AttributeSizes attributes =
      array_attribute_sizes(layout, a.layout().grid().to_string(), storage_order_of<O>(), type);
  reserve({data_bound(shape, chunk, sizeof(T)),
           array_metadata_bound(file, name, attributes, D, chunk_count(shape, chunk))});
  const auto ds = file.create_dataset(name, shape, type, chunk, compression.level);
  const std::uint64_t checksum =
      keyed_checksum(write_slab(file, ds.get(), type, slab), type, shape, a.comm(), step);
  set_array_attributes(file, ds.get(), layout, a.layout().grid().to_string(), storage_order_of<O>(), type,
                       checksum);
  return [=, comm = a.comm(), layout = slab.layout](const Hdf5File& written) {
    const auto into = FileSlab<T, D>::allocated(layout, comm);
    const auto stored = written.open_dataset(name);
    const KeyedSums sums = read_slab(written, stored.get(), name, type, into);
    written.agree(keyed_checksum(sums, type, as_vector(layout.shape()), comm, step) != checksum,
                  "dataset '" + name + "' read back differs from what was written");
  };
}

/// Fills `into` (any layout, storage order and rank count) from the open
/// dataset `ds` named `name` of `file`, checking type, shape and, unless
/// `options` say not to, checksum.  Collective.  A dataset without a checksum
/// is read with a warning.
template <class T, int D, class M, class O>
void read_array(const Hdf5File& file, hid_t ds, const std::string& name, DistArray<T, D, M, O>& into,
                const RestoreOptions& options) {
  const std::string where = "checkpoint '" + file.path() + "', dataset '" + name + "': ";
  const DatasetMeta meta = read_meta(file, ds, name);
  if (meta.element_type != element_type_name<T>())
    throw CheckpointError(where + "holds " + meta.element_type + " elements, the array holds " +
                          element_type_name<T>());
  const auto expected = as_vector(into.layout().shape());
  if (meta.shape != expected)
    throw CheckpointError(where + "has shape " + shape_text(meta.shape) + ", the array has shape " +
                          shape_text(expected));
  if (options.verify_checksum && !meta.checksum && meta.format_version != 0)
    throw CheckpointError(where + "has no distarray_checksum attribute, but its distarray_format_version " +
                          "says distarray wrote it, always with one: the checksum was removed; restore with "
                          "the checksum skipped to read it unverified");
  const bool verified = options.verify_checksum && meta.checksum;
  const bool keyed = verified && meta.format_version >= 3;
  const std::string hashed_type = element_type_name_in_format(meta.element_type, meta.format_version);
  // Compares the checksum of what was read, `found()`, with the saved one.
  const auto check = [&](const auto& found) {
    if (verified && found() != *meta.checksum)
      throw CheckpointError(where + "checksum mismatch: the data differs from what was saved");
    if (!meta.checksum && options.verify_checksum) warn_unverified(file.path(), name, into.comm());
  };
  if constexpr (by_row_groups<M, O>) {
    const int ranks = ranks_of(into.comm());
    const auto group = row_group_rows(into.layout(), sizeof(T), ranks);
    // Not when verifying a format 1 or 2 checksum: groups hash by format 3's row keys.
    if ((keyed || !verified) && group && !is_file_slab(into, ranks)) {
      const KeyedSums sums = read_by_row_groups(file, ds, name, meta.element_type, into, *group, keyed);
      check([&] { return keyed_checksum(sums, hashed_type, meta.shape, into.comm(), meta.step); });
      return;
    }
  }
  FileSlab<T, D> slab = file_slab_for(into);
  const KeyedSums sums = read_slab(file, ds, name, meta.element_type, slab, keyed);
  check([&] {
    return keyed ? keyed_checksum(sums, hashed_type, meta.shape, into.comm(), meta.step)
                 : global_checksum<T, D>(slab.layout, slab.array.grid().coord(), slab.data(), into.comm(),
                                         meta.format_version);
  });
  from_file_slab(slab, into);
}

}  // namespace distarray::detail
