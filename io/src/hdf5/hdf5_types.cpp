#include "hdf5_types.hpp"

#include <distarray/core/error.hpp>

namespace distarray::detail {

namespace {

/// Name of member i of a compound type.
std::string member_name(hid_t compound, unsigned i) {
  char* name = H5Tget_member_name(compound, i);
  std::string s = name ? name : "";
  H5free_memory(name);
  return s;
}

bool is_float64(hid_t t) { return H5Tget_class(t) == H5T_FLOAT && H5Tget_size(t) == 8; }

bool is_h5py_complex128(hid_t t) {
  if (H5Tget_class(t) != H5T_COMPOUND || H5Tget_size(t) != 16 || H5Tget_nmembers(t) != 2) return false;
  const char* names[2] = {"r", "i"};
  for (unsigned i = 0; i < 2; ++i) {
    const H5Id member(H5Tget_member_type(t, i), H5Tclose);
    if (member_name(t, i) != names[i] || H5Tget_member_offset(t, i) != 8 * i || !is_float64(member.get()))
      return false;
  }
  return true;
}

}  // namespace

H5Id memory_type(const std::string& type) {
  if (type == "f32") return H5Id(H5Tcopy(H5T_NATIVE_FLOAT), H5Tclose);
  if (type == "f64") return H5Id(H5Tcopy(H5T_NATIVE_DOUBLE), H5Tclose);
  if (type == "i32") return H5Id(H5Tcopy(H5T_NATIVE_INT32), H5Tclose);
  if (type == "i64") return H5Id(H5Tcopy(H5T_NATIVE_INT64), H5Tclose);
  if (type == "c128") {  // complex<double> as h5py writes it: fields r and i
    H5Id c(H5Tcreate(H5T_COMPOUND, 16), H5Tclose);
    H5Tinsert(c.get(), "r", 0, H5T_NATIVE_DOUBLE);
    H5Tinsert(c.get(), "i", 8, H5T_NATIVE_DOUBLE);
    return c;
  }
  throw CheckpointError("unsupported element type '" + type + "'");
}

std::string element_type_of(hid_t t) {
  const H5T_class_t cls = H5Tget_class(t);
  const std::size_t size = H5Tget_size(t);
  const bool signed_int = cls == H5T_INTEGER && H5Tget_sign(t) == H5T_SGN_2;
  if (cls == H5T_FLOAT && size == 4) return "f32";
  if (cls == H5T_FLOAT && size == 8) return "f64";
  if (signed_int && size == 4) return "i32";
  if (signed_int && size == 8) return "i64";
  if (is_h5py_complex128(t)) return "c128";
  return "";
}

std::string describe_type(hid_t t) {
  const H5T_class_t cls = H5Tget_class(t);
  const std::string size = std::to_string(H5Tget_size(t)) + " bytes";
  if (cls == H5T_COMPOUND) {
    std::string s = "compound {";
    const int n = H5Tget_nmembers(t);
    for (int i = 0; i < n && i < 8; ++i) s += (i ? ", " : "") + member_name(t, unsigned(i));
    return s + (n > 8 ? ", ...} of " : "} of ") + size;
  }
  if (cls == H5T_INTEGER)
    return std::string(H5Tget_sign(t) == H5T_SGN_2 ? "signed" : "unsigned") + " integer of " + size;
  if (cls == H5T_FLOAT) return "float of " + size;
  if (cls == H5T_STRING) return "string";
  return "type class " + std::to_string(int(cls)) + ", " + size;
}

}  // namespace distarray::detail
