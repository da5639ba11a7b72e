#pragma once
// The element types, ranks and storage orders the Python module is compiled
// for, and the dispatch from their run-time names to templates: every
// binding is one template instantiated for each combination.

#include <distarray/core.hpp>

#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace distarray::python {

/// numpy's names of the element types the library supports.
enum class DType { float32, float64, int32, int64, complex64, complex128 };

DType dtype_from_name(const std::string& name);
const char* dtype_name(DType t);
/// "float32, float64, int32, int64, complex64, complex128".
std::string dtype_names();

template <class T>
struct Tag {
  using type = T;
};

/// f(Tag<T>{}) for the C++ type of `t`.
template <class F>
decltype(auto) with_dtype(DType t, F&& f) {
  switch (t) {
    case DType::float32:
      return f(Tag<float>{});
    case DType::float64:
      return f(Tag<double>{});
    case DType::int32:
      return f(Tag<std::int32_t>{});
    case DType::int64:
      return f(Tag<std::int64_t>{});
    case DType::complex64:
      return f(Tag<std::complex<float>>{});
    case DType::complex128:
      break;
  }
  return f(Tag<std::complex<double>>{});
}

/// Arrays of 1 to 3 dimensions.
constexpr int max_ndim = 3;

/// f(std::integral_constant<int, D>{}) for ndim in [1, max_ndim]; UsageError otherwise.
template <class F>
decltype(auto) with_ndim(int ndim, F&& f) {
  switch (ndim) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
  }
  throw UsageError("distarray for Python handles 1- to 3-dimensional arrays, not " + std::to_string(ndim));
}

/// f(Tag<Kokkos::LayoutRight>{}) for "C", f(Tag<Kokkos::LayoutLeft>{}) for "F".
template <class F>
decltype(auto) with_order(const std::string& order, F&& f) {
  if (order == "C") return f(Tag<Kokkos::LayoutRight>{});
  if (order == "F") return f(Tag<Kokkos::LayoutLeft>{});
  throw UsageError("order is 'C' (row-major) or 'F' (column-major), not '" + order + "'");
}

/// A layout of any supported rank (a struct, not the variant itself: the
/// module binds it as a class, which pybind11's variant conversion would hide).
struct AnyLayout {
  std::variant<Layout<1>, Layout<2>, Layout<3>> v;
  int ndim() const { return int(v.index()) + 1; }
  friend bool operator==(const AnyLayout&, const AnyLayout&) = default;
};

}  // namespace distarray::python
