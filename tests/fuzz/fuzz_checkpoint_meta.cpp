// libFuzzer target: the checkpoint metadata reader.  Each input crafts a
// small HDF5 file — the dataset's element type, rank and extents, and the
// distarray attributes with fuzzed types, element counts and contents — then
// checkpoint_info and restore read it on one rank.  A file distarray cannot
// use must end in a CheckpointError; any other exception or a sanitizer
// report is a crash.

#include <distarray/core.hpp>
#include <distarray/io.hpp>

#include <hdf5.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

/// Reads the fuzz input front to back; zeros once it runs out.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(data_) + pos_, size_ - pos_);
    pos_ = size_;
    return s;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

hid_t element_type(std::uint8_t selector) {
  switch (selector % 7) {
    case 0:
      return H5Tcopy(H5T_NATIVE_DOUBLE);
    case 1:
      return H5Tcopy(H5T_NATIVE_FLOAT);
    case 2:
      return H5Tcopy(H5T_NATIVE_INT32);
    case 3:
      return H5Tcopy(H5T_NATIVE_INT64);
    case 4:
      return H5Tcopy(H5T_NATIVE_UINT8);
    case 5: {  // {r, i} of doubles: what distarray writes for c64
      const hid_t t = H5Tcreate(H5T_COMPOUND, 16);
      H5Tinsert(t, "r", 0, H5T_NATIVE_DOUBLE);
      H5Tinsert(t, "i", 8, H5T_NATIVE_DOUBLE);
      return t;
    }
    default: {  // 16 bytes of two int64: looks like c64 by size and member count
      const hid_t t = H5Tcreate(H5T_COMPOUND, 16);
      H5Tinsert(t, "a", 0, H5T_NATIVE_INT64);
      H5Tinsert(t, "b", 8, H5T_NATIVE_INT64);
      return t;
    }
  }
}

/// An attribute `key` on `object`: absent, a u64, a fixed string or a double,
/// scalar or with a few elements, its bytes from the input.
void add_attribute(hid_t object, const char* key, Bytes& in, const std::string& text) {
  const std::uint8_t kind = in.next() % 4;
  if (kind == 0) return;
  const hsize_t count = in.next() % 3;  // 0: scalar dataspace, else that many elements
  const hid_t space = count == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr);
  hid_t type = -1;
  std::vector<std::uint8_t> value;
  if (kind == 1) {
    type = H5Tcopy(H5T_NATIVE_UINT64);
    value.resize(8 * std::max<hsize_t>(count, 1));
  } else if (kind == 2) {
    type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, std::max<std::size_t>(text.size(), 1));
    value.resize(std::max<std::size_t>(text.size(), 1) * std::max<hsize_t>(count, 1));
    std::copy(text.begin(), text.end(), value.begin());
  } else {
    type = H5Tcopy(H5T_NATIVE_DOUBLE);
    value.resize(8 * std::max<hsize_t>(count, 1));
  }
  for (std::size_t i = 0; i < value.size() && kind != 2; ++i) value[i] = in.next();
  const hid_t a = H5Acreate2(object, key, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, type, value.data());
    H5Aclose(a);
  }
  H5Tclose(type);
  H5Sclose(space);
}

std::string craft(const std::uint8_t* data, std::size_t size) {
  const std::string path = "/dev/shm/distarray-fuzz-" + std::to_string(::getpid()) + ".h5";
  Bytes in(data, size);
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t type = element_type(in.next());
  const int rank = in.next() % 4;
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  for (auto& d : dims) d = in.next() % 6;
  const hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims.data(), nullptr);
  const hid_t ds = H5Dcreate2(file, "x", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const std::uint8_t layout_bytes = in.next();
  const std::string tail = in.rest();
  Bytes attrs(reinterpret_cast<const std::uint8_t*>(tail.data()), std::min<std::size_t>(tail.size(), 40));
  const std::string text = tail.size() > 40 ? tail.substr(40, layout_bytes) : std::string();
  for (const char* key :
       {"distarray_layout", "distarray_format_version", "distarray_checksum", "distarray_element_type"})
    add_attribute(ds, key, attrs, text);
  H5Dclose(ds);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  static distarray::Environment environment(*argc, *argv);  // MPI and Kokkos for the whole run
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = craft(data, size);
  try {
    const distarray::DatasetInfo info = distarray::checkpoint_info(path, "x", MPI_COMM_SELF);
    if (info.element_type == "f64" && info.shape.size() == 1) {
      distarray::DistArray<double, 1> a(distarray::Layout<1>::parse("block on 1", {info.shape[0]}),
                                        MPI_COMM_SELF);
      distarray::restore(path, "x", a);
    }
    if (info.element_type == "i64" && info.shape.size() == 2) {
      distarray::DistArray<std::int64_t, 2> a(
          distarray::Layout<2>::parse("cyclic,* on 1x1", {info.shape[0], info.shape[1]}), MPI_COMM_SELF);
      distarray::restore(path, "x", a);
    }
  } catch (const distarray::CheckpointError&) {
  }
  ::unlink(path.c_str());
  return 0;
}
