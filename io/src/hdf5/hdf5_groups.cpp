// Groups of a checkpoint file (the steps of a series) and where its raw data
// lies (what a step's rollback journal leaves out, rollback_journal.hpp).

#include <distarray/core/error.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <algorithm>

namespace distarray::detail {

bool Hdf5File::exists(const std::string& name) const {
  const std::string path = dataset_path(name);
  // Check each link of the path, so that a missing group is not an HDF5 error.
  std::string prefix;
  for (std::size_t from = 0; from <= path.size();) {
    const std::size_t slash = std::min(path.find('/', from), path.size());
    prefix += (prefix.empty() ? "" : "/") + path.substr(from, slash - from);
    if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    from = slash + 1;
  }
  return true;
}

bool Hdf5File::is_group(const std::string& name) const {
  H5O_info_t info{};
  return exists(name) &&
         H5Oget_info_by_name2(file_.get(), dataset_path(name).c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) >=
             0 &&
         info.type == H5O_TYPE_GROUP;
}

H5Id Hdf5File::create_group(const std::string& name) const {
  // Attributes listed in the order they were written (a step's time before its parameters).
  const H5Id gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
  H5Pset_attr_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  H5Id g(H5Gcreate2(file_.get(), dataset_path(name).c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
  if (g.get() < 0) fail("cannot create group '" + name + "'");
  return g;
}

H5Id Hdf5File::open_group(const std::string& name) const {
  if (name != "/" && !exists(name)) fail("no group '" + name + "'");
  H5Id g(H5Gopen2(file_.get(), name == "/" ? "/" : dataset_path(name).c_str(), H5P_DEFAULT), H5Gclose);
  if (g.get() < 0) fail("'" + name + "' is not a group");
  return g;
}

std::vector<std::string> Hdf5File::children(const std::string& name) const {
  const H5Id g = open_group(name);
  std::vector<std::string> names;
  const auto add = [](hid_t, const char* link, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->push_back(link);
    return 0;
  };
  if (H5Literate(g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, add, &names) < 0)
    fail("cannot list group '" + name + "'");
  return names;
}

void Hdf5File::remove(const std::string& name) const {
  if (H5Ldelete(file_.get(), dataset_path(name).c_str(), H5P_DEFAULT) < 0)
    fail("cannot remove '" + name + "'");
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> Hdf5File::data_extents() const {
  struct Visit {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> extents;
    bool failed = false;
  } visit;
  const auto each = [](hid_t file, const char* name, const H5O_info_t* info, void* data) -> herr_t {
    auto& v = *static_cast<Visit*>(data);
    if (info->type != H5O_TYPE_DATASET) return 0;
    const H5Id ds(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
    const H5Id dcpl(H5Dget_create_plist(ds.get()), H5Pclose);
    const H5D_layout_t layout = H5Pget_layout(dcpl.get());
    if (layout == H5D_CONTIGUOUS) {
      const haddr_t at = H5Dget_offset(ds.get());
      if (at != HADDR_UNDEF) v.extents.emplace_back(at, H5Dget_storage_size(ds.get()));
    } else if (layout == H5D_CHUNKED) {
      hsize_t chunks = 0;
      const H5Id space(H5Dget_space(ds.get()), H5Sclose);
      if (H5Dget_num_chunks(ds.get(), space.get(), &chunks) < 0) v.failed = true;
      for (hsize_t c = 0; c < chunks && !v.failed; ++c) {
        haddr_t at = 0;
        hsize_t size = 0;
        unsigned mask = 0;
        if (H5Dget_chunk_info(ds.get(), space.get(), c, nullptr, &mask, &at, &size) < 0) v.failed = true;
        if (at != HADDR_UNDEF) v.extents.emplace_back(at, size);
      }
    }
    return v.failed ? -1 : 0;
  };
  if (H5Ovisit2(file_.get(), H5_INDEX_NAME, H5_ITER_INC, each, &visit, H5O_INFO_BASIC) < 0 || visit.failed)
    fail("cannot list where its datasets' data lie");
  std::sort(visit.extents.begin(), visit.extents.end());
  return visit.extents;
}

}  // namespace distarray::detail
