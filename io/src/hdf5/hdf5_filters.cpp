// Chunked, shuffled and deflated datasets (compression.hpp).  Parallel HDF5
// writes filtered datasets only collectively and only from 1.10.2 on; an
// HDF5 without that or without the deflate encoder is refused up front, the
// same answer on every rank.

#include <distarray/core/error.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <string>

namespace distarray::detail {

namespace {

bool can_encode(H5Z_filter_t filter) {
  unsigned flags = 0;
  return H5Zfilter_avail(filter) > 0 && H5Zget_filter_info(filter, &flags) >= 0 &&
         (flags & H5Z_FILTER_CONFIG_ENCODE_ENABLED) != 0;
}

}  // namespace

void Hdf5File::set_compression(hid_t dcpl, const std::vector<std::uint64_t>& chunk, int level) const {
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  const std::string version =
      std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
  if (major == 1 && (minor < 10 || (minor == 10 && release < 2)))
    fail("compression needs parallel HDF5 1.10.2 or later (collective filtered writes); this is HDF5 " +
         version);
  if (!can_encode(H5Z_FILTER_DEFLATE) || !can_encode(H5Z_FILTER_SHUFFLE))
    fail("compression needs HDF5's deflate and shuffle filters; this HDF5 " + version + " lacks them");
  const std::vector<hsize_t> dims(chunk.begin(), chunk.end());
  if (H5Pset_chunk(dcpl, int(dims.size()), dims.data()) < 0 || H5Pset_shuffle(dcpl) < 0 ||
      H5Pset_deflate(dcpl, unsigned(level)) < 0)
    fail("cannot set up a compressed dataset of chunk shape " + extents_text(dims));
}

std::string Hdf5File::filters_of(hid_t dataset) const {
  const H5Id dcpl(H5Dget_create_plist(dataset), H5Pclose);
  if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED) return "";
  std::vector<hsize_t> dims(32);
  const int d = H5Pget_chunk(dcpl.get(), int(dims.size()), dims.data());
  dims.resize(std::size_t(std::max(d, 0)));
  std::string filters;
  for (int f = 0; f < H5Pget_nfilters(dcpl.get()); ++f) {
    unsigned flags = 0, config = 0, values[8] = {};
    std::size_t n = 8;
    char name[64] = {};
    const H5Z_filter_t id =
        H5Pget_filter2(dcpl.get(), unsigned(f), &flags, &n, values, sizeof name, name, &config);
    std::string one = id == H5Z_FILTER_DEFLATE ? "deflate(" + std::to_string(n > 0 ? values[0] : 0) + ")"
                      : id == H5Z_FILTER_SHUFFLE
                          ? std::string("shuffle")
                          : "filter " + std::to_string(id) + (name[0] ? " " : "") + name;
    filters += (filters.empty() ? "" : "+") + one;
  }
  return (filters.empty() ? "" : filters + ", ") + "chunks " + extents_text(dims);
}

}  // namespace distarray::detail
