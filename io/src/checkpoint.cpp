#include <distarray/core/detail/collective.hpp>
#include <distarray/io/checkpoint.hpp>

#include "same_arguments.hpp"
#include "series/series_steps.hpp"

#include <algorithm>
#include <cstdio>
#include <variant>

namespace distarray {

CheckpointWriter::CheckpointWriter(std::string path, MPI_Comm comm) : path_(std::move(path)) {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  try {
    detail::agree_same_arguments(comm_, "checkpoint '" + path_ + "'", {{"the file", path_}});
    // A series holds every step a run saved: a checkpoint renamed over it would lose them.
    if (detail::is_series_file(path_, comm_))
      throw CheckpointError("checkpoint '" + path_ +
                            "': the file is a distarray series, and a checkpoint would replace it with "
                            "all its steps; save to another path, or remove the series first");
    temporary_ = detail::TemporaryFile(path_, comm_);
    file_ = detail::Hdf5File::create(temporary_.path(), comm_);
    temporary_.check_unchanged(comm_);
    space_ = detail::ReservedSpace(temporary_.descriptor(), path_);
    space_.reserve({0, detail::first_metadata_bytes}, comm_);  // H5Fcreate truncated the file: again
  } catch (...) {
    file_ = {};       // discarded: nothing is written
    temporary_ = {};  // removes the file
    MPI_Comm_free(&comm_);
    throw;
  }
}

CheckpointWriter::~CheckpointWriter() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  file_ = {};       // discards the HDF5 file unless committed (closed), before its communicator goes
  temporary_ = {};  // removes the temporary file unless committed
  MPI_Comm_free(&comm_);
}

void CheckpointWriter::commit() {
  file_.close();
  space_.trim(comm_);  // what was reserved and not used
  {
    const auto written = detail::Hdf5File::open(temporary_.path(), comm_);
    for (const auto& read_back : read_backs_) read_back(written);
  }
  temporary_.sync(comm_);
  temporary_.commit(comm_);
}

namespace detail {

std::string shape_text(const std::vector<index_t>& shape) {
  const std::string t = extents_text(shape);
  return t.empty() ? std::string("a scalar") : t;
}

DatasetMeta read_meta(const Hdf5File& file, hid_t dataset, const std::string& name) {
  DatasetMeta meta{file.shape_of(dataset, name),
                   file.type_of(dataset, name),
                   {},
                   {},
                   0,
                   std::nullopt,
                   file.filters_of(dataset),
                   std::nullopt};
  const std::string where = "dataset '" + name + "': ";
  std::string claimed;
  // Formats before 4 call complex<double> c64.
  if (file.get_attribute(dataset, "distarray_element_type", claimed) &&
      current_element_type_name(claimed) != meta.element_type)
    throw CheckpointError("checkpoint '" + file.path() + "', " + where + "its elements are stored as " +
                          meta.element_type + " but its distarray_element_type attribute says '" +
                          utf8_prefix(claimed, 64) + "'");
  file.get_attribute(dataset, "distarray_layout", meta.saved_layout);
  file.get_attribute(dataset, "distarray_storage_order", meta.storage_order);
  file.get_attribute(dataset, "distarray_format_version", meta.format_version);
  if (meta.format_version > checkpoint_format_version)
    throw CheckpointError("checkpoint '" + file.path() + "', " + where + "was written in format version " +
                          std::to_string(meta.format_version) + ", newer than this library's " +
                          std::to_string(checkpoint_format_version));
  std::uint64_t checksum = 0;
  if (file.get_attribute(dataset, "distarray_checksum", checksum)) meta.checksum = checksum;
  // Format 5: an array of a series step carries the step, as its group says, in its checksum.
  const std::string path = dataset_path(name);
  std::uint64_t step = 0;
  if (const std::size_t slash = path.rfind('/');
      meta.format_version >= 5 && slash != std::string::npos &&
      file.get_attribute(file.open_group(path.substr(0, slash)).get(), "distarray_step", step))
    meta.step = step;
  return meta;
}

namespace {

using ArrayAttribute = std::pair<std::string, std::variant<std::string, std::uint64_t>>;

/// distarray's attributes of an array, in the order they are written.
std::vector<ArrayAttribute> array_attributes(const std::string& layout, const std::string& grid,
                                             StorageOrder order, const std::string& type,
                                             std::uint64_t checksum) {
  return {{"distarray_layout", layout},
          {"distarray_grid", grid},
          {"distarray_storage_order",
           std::string(order == StorageOrder::row_major ? "row-major" : "column-major")},
          {"distarray_element_type", type},
          {"distarray_format_version", checkpoint_format_version},
          {"distarray_library_version", std::string(DISTARRAY_VERSION)},
          {"distarray_checksum", checksum}};
}

}  // namespace

void set_array_attributes(const Hdf5File& file, hid_t ds, const std::string& layout, const std::string& grid,
                          StorageOrder order, const std::string& type, std::uint64_t checksum) {
  for (const auto& [key, value] : array_attributes(layout, grid, order, type, checksum))
    std::visit([&, &key = key](const auto& v) { file.set_attribute(ds, key, v); }, value);
}

AttributeSizes array_attribute_sizes(const std::string& layout, const std::string& grid, StorageOrder order,
                                     const std::string& type) {
  AttributeSizes sizes;
  for (const auto& [key, value] : array_attributes(layout, grid, order, type, 0))
    sizes.emplace_back(key, value_bytes(std::get_if<std::string>(&value)));
  return sizes;
}

void warn_unverified(const std::string& path, const std::string& name, MPI_Comm comm) {
  if (detail::rank_of(comm) == 0)
    std::fprintf(stderr,
                 "distarray: warning: checkpoint '%s', dataset '%s' has no distarray_checksum attribute: "
                 "the data read was not verified\n",
                 path.c_str(), name.c_str());
}

}  // namespace detail

DatasetInfo detail::dataset_info(const Hdf5File& file, const std::string& name) {
  const auto ds = file.open_dataset(name);
  const DatasetMeta meta = read_meta(file, ds.get(), name);
  return {meta.shape, meta.element_type, meta.saved_layout, meta.storage_order, meta.compression};
}

DatasetInfo checkpoint_info(const std::string& path, const std::string& name, MPI_Comm comm) {
  return detail::dataset_info(detail::Hdf5File::open(path, comm), name);
}

namespace {

/// The datasets below `group` of `file` into `out`, groups in name order.
void add_arrays(const detail::Hdf5File& file, const std::string& group,
                std::vector<std::pair<std::string, DatasetInfo>>& out) {
  for (const std::string& child : file.children(group)) {
    const std::string name = group == "/" ? child : group + "/" + child;
    if (file.is_group(name))
      add_arrays(file, name, out);
    else
      out.emplace_back(name, detail::dataset_info(file, name));
  }
}

}  // namespace

std::vector<std::pair<std::string, DatasetInfo>> list_arrays(const std::string& path, MPI_Comm comm) {
  std::vector<std::pair<std::string, DatasetInfo>> out;
  add_arrays(detail::Hdf5File::open(path, comm), "/", out);
  return out;
}

}  // namespace distarray
