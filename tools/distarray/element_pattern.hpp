#pragma once
// The test pattern of the distarray command (ARCHITECTURE Sec. 7): an element's
// value is its row-major linear global index converted to the element type —
// f32 takes it modulo 2^24 (exact in a float), i32 modulo 2^31, complex types
// carry minus the index as imaginary part — so any reader can check any element.
// Step s of a series holds the pattern of index + s.

#include <distarray/core/dist_array.hpp>
#include <distarray/core/error.hpp>
#include <distarray/core/row_major.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

namespace distarray::cli {

template <class T>
T pattern_value(index_t linear) {
  if constexpr (std::is_same_v<T, float>)
    return float(linear % (index_t(1) << 24));
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return std::int32_t(linear % (index_t(1) << 31));
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return {double(linear), -double(linear)};
  else
    return T(linear);
}

/// Elements of `a` on all ranks that differ from the pattern shifted by
/// `shift` (a series step's number: steps differ in every element).  Collective.
template <class T, int D, class S, class Order>
index_t pattern_mismatches(const DistArray<T, D, S, Order>& a, index_t shift = 0) {
  auto host = Kokkos::create_mirror_view(a.local());
  Kokkos::deep_copy(host, a.local());
  const Index<D> shape = a.layout().shape();
  index_t bad = 0;
  for (index_t i = 0; i < a.local_size(); ++i)
    bad +=
        host.data()[i] != pattern_value<T>(row_major_offset(a.global_index(a.local_index(i)), shape) + shift);
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, a.comm()));
  return bad;
}

/// Calls f.template operator()<T>() with T the element type named by `type`
/// (f32 f64 c128 i32 i64, and c64, c128's name before checkpoint format 4);
/// UsageError for another name.
template <class F>
decltype(auto) with_element_type(const std::string& type, F&& f) {
  if (type == "f32") return f.template operator()<float>();
  if (type == "f64") return f.template operator()<double>();
  if (type == "c128" || type == "c64") return f.template operator()<std::complex<double>>();
  if (type == "i32") return f.template operator()<std::int32_t>();
  if (type == "i64") return f.template operator()<std::int64_t>();
  throw UsageError("unknown element type '" + type + "' (f32, f64, c128, i32, i64)");
}

}  // namespace distarray::cli
