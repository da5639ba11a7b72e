// Scalar string and integer attributes of checkpoint datasets.  Strings are
// written fixed-length; both fixed- and variable-length strings (h5py's
// default) are read.

#include <distarray/core/error.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <variant>

namespace distarray::detail {

void Hdf5File::set_attribute(hid_t object, const std::string& key, const std::string& value) const {
  const H5Id t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.get(), std::max<std::size_t>(value.size(), 1));
  const H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  const H5Id a(H5Acreate2(object, key.c_str(), t.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  agree(a.get() < 0 || H5Awrite(a.get(), t.get(), value.c_str()) < 0, "cannot write attribute '" + key + "'");
}

void Hdf5File::set_attribute(hid_t object, const std::string& key, std::uint64_t value) const {
  const H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  const H5Id a(H5Acreate2(object, key.c_str(), H5T_NATIVE_UINT64, space.get(), H5P_DEFAULT, H5P_DEFAULT),
               H5Aclose);
  agree(a.get() < 0 || H5Awrite(a.get(), H5T_NATIVE_UINT64, &value) < 0,
        "cannot write attribute '" + key + "'");
}

H5Id Hdf5File::open_single_attribute(hid_t object, const std::string& key, H5T_class_t expected,
                                     const char* what) const {
  H5Id a(H5Aopen(object, key.c_str(), H5P_DEFAULT), H5Aclose);
  if (a.get() < 0) fail("cannot open attribute '" + key + "'");
  const H5Id space(H5Aget_space(a.get()), H5Sclose);
  const hssize_t values = H5Sget_simple_extent_npoints(space.get());
  if (values != 1) fail("attribute '" + key + "' holds " + std::to_string(values) + " values, expected one");
  const H5Id t(H5Aget_type(a.get()), H5Tclose);
  if (H5Tget_class(t.get()) != expected) fail("attribute '" + key + "' is not " + what);
  return a;
}

bool Hdf5File::get_attribute(hid_t object, const std::string& key, std::string& value) const {
  if (H5Aexists(object, key.c_str()) <= 0) return false;
  const H5Id a = open_single_attribute(object, key, H5T_STRING, "a string");
  const H5Id t(H5Aget_type(a.get()), H5Tclose);
  if (H5Tis_variable_str(t.get()) > 0) {
    const H5Id memory(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(memory.get(), H5T_VARIABLE);
    H5Tset_cset(memory.get(), H5Tget_cset(t.get()));
    char* text = nullptr;
    if (H5Aread(a.get(), memory.get(), &text) < 0) fail("cannot read attribute '" + key + "'");
    value = text ? text : "";
    H5free_memory(text);
    return true;
  }
  std::string buf(H5Tget_size(t.get()), char(0));
  if (H5Aread(a.get(), t.get(), buf.data()) < 0) fail("cannot read attribute '" + key + "'");
  value = buf.substr(0, buf.find('\0'));
  return true;
}

bool Hdf5File::get_attribute(hid_t object, const std::string& key, std::uint64_t& value) const {
  if (H5Aexists(object, key.c_str()) <= 0) return false;
  const H5Id a = open_single_attribute(object, key, H5T_INTEGER, "an integer");
  if (H5Aread(a.get(), H5T_NATIVE_UINT64, &value) < 0) fail("cannot read attribute '" + key + "'");
  return true;
}

}  // namespace distarray::detail

namespace distarray::detail {

void Hdf5File::set_attribute(hid_t object, const std::string& key, const AttributeValue& value) const {
  if (const auto* text = std::get_if<std::string>(&value)) return set_attribute(object, key, *text);
  const bool real = std::holds_alternative<double>(value);
  const hid_t type = real ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  const void* data =
      real ? static_cast<const void*>(&std::get<double>(value)) : &std::get<std::int64_t>(value);
  const H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
  const H5Id a(H5Acreate2(object, key.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  agree(a.get() < 0 || H5Awrite(a.get(), type, data) < 0, "cannot write attribute '" + key + "'");
}

Attributes Hdf5File::user_attributes(hid_t object) const {
  std::vector<std::string> keys;
  const auto add = [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->push_back(name);
    return 0;
  };
  // In the order written where the object tracks it (steps do), else by name.
  if (H5Aiterate2(object, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, add, &keys) < 0) {
    keys.clear();
    if (H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, add, &keys) < 0)
      fail("cannot list the attributes of an object");
  }
  Attributes out;
  for (const std::string& key : keys) {
    if (key.rfind("distarray_", 0) == 0) continue;
    const H5Id a(H5Aopen(object, key.c_str(), H5P_DEFAULT), H5Aclose);
    const H5Id space(H5Aget_space(a.get()), H5Sclose);
    const H5Id t(H5Aget_type(a.get()), H5Tclose);
    if (H5Sget_simple_extent_npoints(space.get()) != 1) continue;  // arrays are not step attributes
    switch (H5Tget_class(t.get())) {
      case H5T_STRING: {
        std::string text;
        get_attribute(object, key, text);
        out.emplace_back(key, text);
        break;
      }
      case H5T_INTEGER: {
        std::int64_t v = 0;
        if (H5Aread(a.get(), H5T_NATIVE_INT64, &v) >= 0) out.emplace_back(key, v);
        break;
      }
      case H5T_FLOAT: {
        double v = 0;
        if (H5Aread(a.get(), H5T_NATIVE_DOUBLE, &v) >= 0) out.emplace_back(key, v);
        break;
      }
      default:
        break;
    }
  }
  return out;
}

}  // namespace distarray::detail
