#pragma once
// Element types between distarray's names ("f32" "f64" "c128" "i32" "i64")
// and HDF5 datatypes.  Reading is strict: c64 is only h5py's complex
// convention (a compound of two float64 members named r and i at offsets 0
// and 8), never any 16-byte pair.

#include <distarray/io/detail/hdf5/hdf5_file.hpp>

#include <string>

namespace distarray::detail {

/// The in-memory HDF5 type of an element type name.
H5Id memory_type(const std::string& type);

/// The element type name a stored type reads as, or "" when none.
std::string element_type_of(hid_t stored);

/// A short description of a stored type for error messages ("compound {a, b}").
std::string describe_type(hid_t stored);

}  // namespace distarray::detail
