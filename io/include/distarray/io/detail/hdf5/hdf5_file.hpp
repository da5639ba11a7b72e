#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/hdf5/hdf5_file.hpp is internal: include <distarray/io.hpp>"
#endif
// The HDF5 side of checkpoints, behind a small non-template interface:
// files opened with MPI-IO, datasets of a global shape and an element type
// named "f32" "f64" "c128" "i32" "i64", hyperslab unions, string and integer
// attributes.  Every function is collective over the file's communicator and
// throws CheckpointError naming the file (and dataset) on failure — on every
// rank, where a call can fail on some ranks only.

#include <distarray/core/types.hpp>
#include <distarray/io/attribute.hpp>

#include <hdf5.h>
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace distarray::detail {

/// Owns one HDF5 identifier and closes it with the matching H5*close.
class H5Id {
 public:
  H5Id() = default;
  H5Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  H5Id(H5Id&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = H5I_INVALID_HID; }
  H5Id& operator=(H5Id&& o) noexcept {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = H5I_INVALID_HID;
    return *this;
  }
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  ~H5Id() { reset(); }
  hid_t get() const { return id_; }
  /// Gives up ownership: the caller closes the returned id.
  hid_t release() {
    const hid_t id = id_;
    id_ = H5I_INVALID_HID;
    return id;
  }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

/// Owns a POSIX file descriptor.
class Descriptor {
 public:
  Descriptor() = default;
  explicit Descriptor(int fd) : fd_(fd) {}
  Descriptor(Descriptor&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Descriptor& operator=(Descriptor&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor();
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

/// One piece of a hyperslab union along one dimension: `count` blocks of
/// `block` elements, `stride` apart, from `start`.
struct SlabPiece {
  hsize_t start, stride, count, block;
};

/// A dataset path as HDF5 names it from the root: "/u", "u" and "//u" are
/// one dataset; CheckpointError for an empty name.
std::string dataset_path(const std::string& name);

/// An open checkpoint file.  One opened for writing and not closed with
/// close() is discarded when destroyed (or assigned over): see discard().
class Hdf5File {
 public:
  Hdf5File() = default;
  ~Hdf5File();
  Hdf5File(Hdf5File&& o) noexcept { *this = std::move(o); }
  Hdf5File& operator=(Hdf5File&& o) noexcept;
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;
  /// Creates (truncating) `path` for writing.
  static Hdf5File create(const std::string& path, MPI_Comm comm);
  /// Opens an existing checkpoint read-only (or for appending); CheckpointError
  /// if it is missing, not HDF5, or truncated.
  static Hdf5File open(const std::string& path, MPI_Comm comm, bool writable = false);

  const std::string& path() const { return path_; }
  MPI_Comm comm() const { return comm_; }

  /// UsageError on every rank unless every rank passes the same dataset
  /// name, shape, type and compression (create_dataset's arguments): a
  /// save's first collective that depends on them comes after this.
  void agree_on_dataset(const std::string& name, const std::vector<index_t>& shape, const std::string& type,
                        const std::vector<std::uint64_t>& chunk, int level) const;
  /// Creates dataset `name` (slashes make groups) of the global shape and
  /// type: contiguous when `chunk` is empty, else chunked with shuffle and
  /// deflate at `level` (CheckpointError where this HDF5 cannot write that in parallel).
  H5Id create_dataset(const std::string& name, const std::vector<index_t>& shape, const std::string& type,
                      const std::vector<std::uint64_t>& chunk = {}, int level = 0) const;
  /// Opens dataset `name` (UsageError on every rank where ranks name
  /// different ones); CheckpointError naming it when absent or virtual.
  H5Id open_dataset(const std::string& name) const;
  /// File offset and bytes of a dataset's contiguous storage ({0, 0} when unknown).
  std::pair<std::uint64_t, std::uint64_t> storage_of(hid_t dataset) const;
  /// The global shape and element type name of an open dataset.
  std::vector<index_t> shape_of(hid_t dataset, const std::string& name) const;
  std::string type_of(hid_t dataset, const std::string& name) const;
  /// Its filters and chunk shape, e.g. "shuffle+deflate(4), chunks 64x80"; "" when contiguous.
  std::string filters_of(hid_t dataset) const;

  /// Write / read of this rank's union of hyperslabs (the product of
  /// per-dimension pieces) from or to a row-major local buffer; all ranks
  /// call them.  Transfers are independent (each rank's range is its own),
  /// except collective writes of filtered datasets, which HDF5 requires.
  void write(hid_t dataset, const std::string& type, const std::vector<std::vector<SlabPiece>>& pieces,
             const std::vector<index_t>& local_extents, const void* data) const;
  void read(hid_t dataset, const std::string& name, const std::string& type,
            const std::vector<std::vector<SlabPiece>>& pieces, const std::vector<index_t>& local_extents,
            void* data) const;

  void set_attribute(hid_t object, const std::string& key, const std::string& value) const;
  void set_attribute(hid_t object, const std::string& key, std::uint64_t value) const;
  void set_attribute(hid_t object, const std::string& key, const AttributeValue& value) const;
  /// Scalar integer, real and string attributes whose names do not start with "distarray_".
  Attributes user_attributes(hid_t object) const;
  /// Empty / false when the attribute is absent.
  bool get_attribute(hid_t object, const std::string& key, std::string& value) const;
  bool get_attribute(hid_t object, const std::string& key, std::uint64_t& value) const;

  /// Flushes and closes the file.  A flush that fails throws with the file
  /// still open; HDF5 1.10 cannot close a file after a failed flush (its
  /// metadata cache is left mid-flush), which is why room is reserved before
  /// HDF5 allocates anything (reserved_space.hpp): a full disk never reaches it.
  void close();
  /// Closes the file without writing to it (collective): what HDF5 still
  /// holds goes to an anonymous memory file that replaces the descriptors
  /// MPI-IO opened for it, so the close cannot fail.  HDF5 1.10 frees a file
  /// whose close failed but keeps its identifier, and closes it again inside
  /// MPI_Finalize: a crash.  For files being given up (a save that failed, a
  /// step rolled back), whose bytes nobody keeps.
  void discard() noexcept;
  /// Writes everything HDF5 holds to the file and syncs it (MPI_File_sync).
  void flush() const;

  // Groups (hdf5_groups.cpp).
  bool exists(const std::string& name) const;
  bool is_group(const std::string& name) const;
  H5Id create_group(const std::string& name) const;
  H5Id open_group(const std::string& name) const;
  /// Names of the links in group `name` ("/" for the root).
  std::vector<std::string> children(const std::string& name) const;
  /// Unlinks `name` (its space is not reclaimed).
  void remove(const std::string& name) const;
  /// File ranges [offset, offset + bytes) holding the raw data of every
  /// dataset (contiguous storage or chunks), sorted: the rest is metadata.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> data_extents() const;

  /// For results that may differ between ranks (I/O): CheckpointError naming
  /// the file on every rank when `failed` on any.  Collective.
  void agree(bool failed, const std::string& what) const;

 private:
  /// For checks every rank reaches the same answer to.
  [[noreturn]] void fail(const std::string& what) const;
  /// Chunks of `chunk` elements, shuffled and deflated at `level`.
  void set_compression(hid_t dcpl, const std::vector<std::uint64_t>& chunk, int level) const;

  /// Attribute `key` of `object`, which must hold exactly one value of type
  /// class `expected`: a crafted file may hold an array there, and reading it
  /// into one value would overrun the caller's memory.
  H5Id open_single_attribute(hid_t object, const std::string& key, H5T_class_t expected,
                             const char* what) const;
  /// The name MPI-IO gets for `path`: itself, or for a long path the
  /// /proc/self/fd path of a descriptor kept in long_name_ (hdf5_file.cpp).
  std::string mpi_io_name(const std::string& path, bool writable);

  /// Opens or creates `name` with H5F `flags`, noting the descriptors MPI-IO opens for it.
  void open_noting_descriptors(const std::string& name, unsigned flags, bool create);

  std::string path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  Descriptor long_name_;  // see mpi_io_name()
  H5Id file_;
  bool writable_ = false;
  std::vector<int> mpi_io_descriptors_;  // what discard() replaces
};

}  // namespace distarray::detail
