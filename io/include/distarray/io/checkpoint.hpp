#pragma once
// HDF5 checkpoints of DistArrays (DESIGN Sec. 6).
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
// collective MPI-IO.  A save writes a temporary file and renames it over the
// old one only when complete and synced: a crash leaves the previous file.
// Errors — missing file or dataset, not HDF5, truncated, wrong type or shape,
// checksum mismatch — are CheckpointError on every rank, naming file and dataset.

#include <distarray/core/dist_array.hpp>
#include <distarray/io/detail/hdf5_file.hpp>

#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace distarray {

/// The checkpoint format version this library writes and reads.
inline constexpr std::uint64_t checkpoint_format_version = 1;

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

/// The checksum of this rank's elements (to be summed over ranks).  Global
/// indices come from per-dimension tables, so the loop does no division.
template <class T, int D, class S>
std::uint64_t local_checksum(const DistArray<T, D, S>& a, const T* data) {
  if (a.local_size() == 0) return 0;
  const Index<D> shape = a.layout().shape(), ext = a.local_extents();
  std::array<std::vector<index_t>, D> global;  // global index of each local index, per dimension
  for (int d = 0; d < D; ++d)
    for (index_t l = 0; l < ext[d]; ++l)
      global[d].push_back(a.layout().dist(d).global_index((*a.grid().coord())[d], l));
  std::uint64_t sum = 0;
  Index<D> pos{};
  const index_t rows = a.local_size() / ext[D - 1];
  for (index_t r = 0; r < rows; ++r) {
    index_t base = 0;  // row-major global offset of the row, without the last dimension
    for (int d = 0; d < D - 1; ++d) base = (base + global[d][std::size_t(pos[d])]) * shape[d + 1];
    const T* row = data + r * ext[D - 1];
    for (index_t j = 0; j < ext[D - 1]; ++j)
      sum += element_hash(std::uint64_t(base + global[D - 1][std::size_t(j)]), row + j, sizeof(T));
    for (int d = D - 2; d >= 0; --d) {
      if (++pos[d] < ext[d]) break;
      pos[d] = 0;
    }
  }
  return sum;
}

template <class T, int D, class S>
std::uint64_t global_checksum(const DistArray<T, D, S>& a, const T* data) {
  std::uint64_t sum = local_checksum(a, data);
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, a.comm()));
  return sum;
}

inline std::vector<index_t> as_vector(const auto& extents) { return {extents.begin(), extents.end()}; }

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
    auto host = Kokkos::create_mirror_view(a.local());
    Kokkos::deep_copy(host, a.local());
    const std::string type = element_type_name<T>();
    auto ds = file_.create_dataset(name, detail::as_vector(a.layout().shape()), type);
    file_.write(ds.get(), type, detail::owned_pieces<D>(a.layout(), a.grid().coord()),
                detail::as_vector(a.local_extents()), host.data());
    file_.set_attribute(ds.get(), "distarray_layout", a.layout().to_string());
    file_.set_attribute(ds.get(), "distarray_grid", a.layout().grid().to_string());
    file_.set_attribute(ds.get(), "distarray_element_type", type);
    file_.set_attribute(ds.get(), "distarray_format_version", checkpoint_format_version);
    file_.set_attribute(ds.get(), "distarray_library_version", library_version());
    file_.set_attribute(ds.get(), "distarray_checksum", detail::global_checksum(a, host.data()));
  }

  /// Flushes, syncs and renames the file into place.  Collective.
  void commit();

  /// The file name written until commit().
  const std::string& temporary_path() const { return temporary_; }

 private:
  static std::string library_version();
  std::string path_, temporary_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  detail::Hdf5File file_;
  bool committed_ = false;
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
  const std::string type = file.type_of(ds.get(), name);
  if (type != element_type_name<T>())
    throw CheckpointError(where + "holds " + type + " elements, the array holds " + element_type_name<T>());
  const auto shape = file.shape_of(ds.get(), name);
  const auto expected = detail::as_vector(into.layout().shape());
  if (shape != expected) {
    const auto text = [](const std::vector<index_t>& s) {
      std::string t;
      for (std::size_t d = 0; d < s.size(); ++d) t += (d ? "x" : "") + std::to_string(s[d]);
      return t.empty() ? std::string("a scalar") : t;
    };
    throw CheckpointError(where + "has shape " + text(shape) + ", the array has shape " + text(expected));
  }
  std::uint64_t version = 0;
  if (file.get_attribute(ds.get(), "distarray_format_version", version) &&
      version > checkpoint_format_version)
    throw CheckpointError(where + "was written in format version " + std::to_string(version) +
                          ", newer than this library's " + std::to_string(checkpoint_format_version));
  auto host = Kokkos::create_mirror_view(into.local());
  file.read(ds.get(), name, type, detail::owned_pieces<D>(into.layout(), into.grid().coord()),
            detail::as_vector(into.local_extents()), host.data());
  std::uint64_t stored = 0;
  if (file.get_attribute(ds.get(), "distarray_checksum", stored) &&
      detail::global_checksum(into, host.data()) != stored)
    throw CheckpointError(where + "checksum mismatch: the data differs from what was saved");
  Kokkos::deep_copy(into.local(), host);
}

}  // namespace distarray
