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
// Each array is a dataset of its global shape and native element type (c64:
// the compound {r, i} that h5py reads as complex128), so h5dump and h5py
// read it as a plain array.  Attributes: distarray_layout, distarray_grid,
// distarray_element_type, distarray_format_version, distarray_library_version
// and distarray_checksum (order-independent, so any layout can verify it).
// Every rank writes and reads what it owns as a union of hyperslabs, with
// collective MPI-IO.  A save cannot lose the previous file: it writes a
// temporary file of a unique name next to it (created exclusively), reserves
// the space before writing, agrees on every write's result across ranks,
// reads the data back and checks its checksum, syncs it, and only then
// renames it over the old one (docs/reliability.md).  A crash or any error
// leaves the previous file and removes the temporary.
// Errors — missing file or dataset, not HDF5, truncated, wrong type or shape,
// checksum mismatch, a full disk — are CheckpointError on every rank, naming
// file and dataset.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#endif

#include <distarray/core/collective.hpp>
#include <distarray/core/dist_array.hpp>
#include <distarray/io/detail/checksum.hpp>
#include <distarray/io/detail/hdf5_file.hpp>
#include <distarray/io/detail/temporary_file.hpp>

#include <array>
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_CHECKPOINT
#endif

namespace distarray {

/// The checkpoint format version this library writes; it reads every
/// version up to this one (2: the checksum covers element type and shape).
inline constexpr std::uint64_t checkpoint_format_version = 2;

/// "f32", "f64", "c64", "i32" or "i64".
template <class T>
constexpr const char* element_type_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  if constexpr (std::is_same_v<T, double>) return "f64";
  if constexpr (std::is_same_v<T, std::complex<double>>) return "c64";
  if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  if constexpr (std::is_same_v<T, std::int64_t>) return "i64";
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, std::int64_t>,
                "checkpoints hold f32, f64, c64, i32 or i64 elements");
  return "";
}

namespace detail {

/// What grid coordinate c owns of each dimension, as hyperslab pieces:
/// its full blocks (start, stride P*b, count, block b) and a short last block.
template <int D>
std::vector<std::vector<SlabPiece>> owned_pieces(const Layout<D>& layout, const std::optional<Coord<D>>& c) {
  std::vector<std::vector<SlabPiece>> pieces(D);
  if (!c) return pieces;
  for (int d = 0; d < D; ++d) {
    const Dist1D& dist = layout.dist(d);
    const index_t p = (*c)[d], b = dist.block_size(), extent = dist.local_extent(int(p));
    const index_t full = extent / b, rest = extent % b;
    if (full > 0)
      pieces[d].push_back({hsize_t(p * b), hsize_t(dist.cycle_length()), hsize_t(full), hsize_t(b)});
    if (rest > 0) pieces[d].push_back({hsize_t(p * b + full * dist.cycle_length()), 1, 1, hsize_t(rest)});
  }
  return pieces;
}

inline std::vector<index_t> as_vector(const auto& extents) { return {extents.begin(), extents.end()}; }

/// The checksum of a whole array (collective): the seed of format 2 plus the
/// element sum over ranks; `data` is this rank's row-major block of `layout`.
template <class T, int D>
std::uint64_t global_checksum(const Layout<D>& layout, const std::optional<Coord<D>>& c, const T* data,
                              MPI_Comm comm) {
  std::uint64_t sum = c ? local_checksum<T, D>(layout, *c, data) : 0;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, comm));
  return sum + checksum_seed(element_type_name<T>(), as_vector(layout.shape()));
}

/// What restore() and checkpoint_info() read of a dataset before its data.
struct DatasetMeta {
  std::vector<index_t> shape;
  std::string element_type, saved_layout;
  std::uint64_t format_version = 0;  ///< 0: not written by distarray
  std::optional<std::uint64_t> checksum;
};

/// Reads and cross-checks the dataset's metadata: its stored type against
/// distarray_element_type, the format version against this library's.
DatasetMeta read_meta(const Hdf5File& file, hid_t dataset, const std::string& name);

/// Prints (rank 0) that dataset `name` has no checksum, so nothing was verified.
void warn_unverified(const std::string& path, const std::string& name, MPI_Comm comm);

/// "8x6", or "a scalar".
std::string shape_text(const std::vector<index_t>& shape);

}  // namespace detail

/// Writes arrays into a new checkpoint; `path` is replaced only by commit().
class CheckpointWriter {
 public:
  /// Collective over `comm`; the arrays written must live on its ranks.
  CheckpointWriter(std::string path, MPI_Comm comm);
  /// Without commit(): the temporary file is removed and `path` is untouched.
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  /// Writes `a` as dataset `name` (slashes make groups, e.g. "step_10/u").  Collective.
  template <class T, int D, class S>
  void write(const std::string& name, const DistArray<T, D, S>& a) {
    // Allocations agreed: a rank that cannot allocate must not leave the others in a collective.
    auto host = detail::agreed(comm_, [&] { return Kokkos::create_mirror_view(a.local()); });
    Kokkos::deep_copy(host, a.local());
    const std::string type = element_type_name<T>();
    const Layout<D> layout = a.layout();
    const auto coord = a.grid().coord();
    auto ds = file_.create_dataset(name, detail::as_vector(layout.shape()), type);
    const auto [offset, bytes] = file_.storage_of(ds.get());
    temporary_.reserve(offset, bytes, comm_);
    const auto pieces = detail::owned_pieces<D>(layout, coord);
    const auto extents = detail::as_vector(a.local_extents());
    file_.write(ds.get(), type, pieces, extents, host.data());
    const std::uint64_t checksum = detail::global_checksum<T, D>(layout, coord, host.data(), comm_);
    file_.set_attribute(ds.get(), "distarray_layout", layout.to_string());
    file_.set_attribute(ds.get(), "distarray_grid", layout.grid().to_string());
    file_.set_attribute(ds.get(), "distarray_element_type", type);
    file_.set_attribute(ds.get(), "distarray_format_version", checkpoint_format_version);
    file_.set_attribute(ds.get(), "distarray_library_version", library_version());
    file_.set_attribute(ds.get(), "distarray_checksum", checksum);
    // Read back before commit: write calls were seen to report success on a full disk.
    read_backs_.push_back([=, this, size = std::size_t(a.local_size())](const detail::Hdf5File& written) {
      auto back = detail::agreed(comm_, [&] { return std::vector<T>(size); });
      const auto stored = written.open_dataset(name);
      written.read(stored.get(), name, type, pieces, extents, back.data());
      const bool same = detail::global_checksum<T, D>(layout, coord, back.data(), comm_) == checksum;
      written.agree(!same, "dataset '" + name + "' read back differs from what was written");
    });
  }

  /// Closes the file, reads every dataset back and checks its checksum, syncs
  /// it and renames it into place.  Collective; on any error (every rank
  /// throws it) the previous file is untouched and the temporary removed.
  void commit();

  /// The file name written until commit().
  const std::string& temporary_path() const { return temporary_.path(); }

 private:
  static std::string library_version();
  std::string path_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  detail::TemporaryFile temporary_;
  detail::Hdf5File file_;
  std::vector<std::function<void(const detail::Hdf5File&)>> read_backs_;
};

/// One array into a new checkpoint file.
template <class T, int D, class S>
void save(const std::string& path, const std::string& name, const DistArray<T, D, S>& a) {
  CheckpointWriter w(path, a.comm());
  w.write(name, a);
  w.commit();
}

/// What a checkpoint holds under `name`.
struct DatasetInfo {
  std::vector<index_t> shape;
  std::string element_type;  ///< f32 f64 c64 i32 i64
  std::string saved_layout;  ///< empty for datasets not written by distarray
};

/// Reads dataset metadata (collective); CheckpointError when missing or unreadable.
DatasetInfo checkpoint_info(const std::string& path, const std::string& name, MPI_Comm comm);

/// Fills `into` (any layout, any rank count) from dataset `name`.  Collective.
/// A dataset without a checksum (not written by distarray) is read with a
/// warning on stderr: nothing verifies it.
template <class T, int D, class S>
void restore(const std::string& path, const std::string& name, DistArray<T, D, S>& into) {
  detail::Hdf5File file;
  try {
    file = detail::Hdf5File::open(path, into.comm());
  } catch (const CheckpointError& e) {
    throw CheckpointError(std::string(e.what()) + " (restoring dataset '" + name + "')");
  }
  const auto ds = file.open_dataset(name);
  const std::string where = "checkpoint '" + path + "', dataset '" + name + "': ";
  const detail::DatasetMeta meta = detail::read_meta(file, ds.get(), name);
  if (meta.element_type != element_type_name<T>())
    throw CheckpointError(where + "holds " + meta.element_type + " elements, the array holds " +
                          element_type_name<T>());
  const auto expected = detail::as_vector(into.layout().shape());
  if (meta.shape != expected)
    throw CheckpointError(where + "has shape " + detail::shape_text(meta.shape) + ", the array has shape " +
                          detail::shape_text(expected));
  auto host = detail::agreed(into.comm(), [&] { return Kokkos::create_mirror_view(into.local()); });
  file.read(ds.get(), name, meta.element_type, detail::owned_pieces<D>(into.layout(), into.grid().coord()),
            detail::as_vector(into.local_extents()), host.data());
  if (meta.checksum) {
    std::uint64_t sum =
        detail::global_checksum<T, D>(into.layout(), into.grid().coord(), host.data(), into.comm());
    if (meta.format_version < 2)  // format 1 had no seed
      sum -= detail::checksum_seed(meta.element_type, meta.shape);
    if (sum != *meta.checksum)
      throw CheckpointError(where + "checksum mismatch: the data differs from what was saved");
  } else {
    detail::warn_unverified(path, name, into.comm());
  }
  Kokkos::deep_copy(into.local(), host);
}

}  // namespace distarray
