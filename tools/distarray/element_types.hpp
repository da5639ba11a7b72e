#pragma once
// The element types the distarray command names (f32 f64 c128 i32 i64, as
// checkpoints do); the values it fills arrays with are the shared element
// pattern (support/include/distarray/support/element_pattern.hpp).

#include <distarray/core/error.hpp>

#include <complex>
#include <cstdint>
#include <string>

namespace distarray::cli {

/// Calls f.template operator()<T>() with T the element type named by `type`
/// (f32 f64 c128 i32 i64); UsageError for another name.  Not c64: numpy's
/// complex64 is two floats, which the command does not move, and old
/// checkpoints' c64 is read as c128 by the library itself.
template <class F>
decltype(auto) with_element_type(const std::string& type, F&& f) {
  if (type == "f32") return f.template operator()<float>();
  if (type == "f64") return f.template operator()<double>();
  if (type == "c128") return f.template operator()<std::complex<double>>();
  if (type == "i32") return f.template operator()<std::int32_t>();
  if (type == "i64") return f.template operator()<std::int64_t>();
  throw UsageError("unknown element type '" + type + "' (f32, f64, c128, i32, i64)");
}

}  // namespace distarray::cli
