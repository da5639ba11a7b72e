#pragma once
// The one table of element type names: distarray's short names (the
// distarray command's --type, checkpoints' element_type attribute, the
// benchmarks' records) and numpy's names (the Python module's dtypes).

#include <distarray/core/error.hpp>

#include <complex>
#include <cstdint>
#include <string>

namespace distarray {

/// ElementType<T>::name (short) and ::numpy; nullptr where T has none.
template <class T>
struct ElementType {
  static constexpr const char* name = nullptr;
  static constexpr const char* numpy = nullptr;
};

template <>
struct ElementType<float> {
  static constexpr const char* name = "f32";
  static constexpr const char* numpy = "float32";
};
template <>
struct ElementType<double> {
  static constexpr const char* name = "f64";
  static constexpr const char* numpy = "float64";
};
template <>
struct ElementType<std::complex<double>> {
  static constexpr const char* name = "c128";
  static constexpr const char* numpy = "complex128";
};
template <>
struct ElementType<std::int32_t> {
  static constexpr const char* name = "i32";
  static constexpr const char* numpy = "int32";
};
template <>
struct ElementType<std::int64_t> {
  static constexpr const char* name = "i64";
  static constexpr const char* numpy = "int64";
};
/// No short name: checkpoints before format 4 said "c64" for complex<double>,
/// so the name would read two ways; only the Python module moves these.
template <>
struct ElementType<std::complex<float>> {
  static constexpr const char* name = nullptr;
  static constexpr const char* numpy = "complex64";
};

template <class... T>
struct ElementTypeList {};

/// The types with a short name, in the order error messages list them.
using NamedElementTypes = ElementTypeList<float, double, std::complex<double>, std::int32_t, std::int64_t>;

/// f.template operator()<T>() for each type with a short name, in order.
template <class F>
void for_each_named_element_type(F&& f) {
  [&]<class... T>(ElementTypeList<T...>) { (f.template operator()<T>(), ...); }(NamedElementTypes{});
}

/// Which of a type's two names a list gives.
enum class NameColumn { short_name, numpy };

/// "f32, f64, c128, i32, i64", or numpy's "float32, ..." of the same types.
inline std::string element_type_names(NameColumn column = NameColumn::short_name) {
  std::string names;
  for_each_named_element_type([&]<class T>() {
    names += (names.empty() ? "" : ", ") +
             std::string(column == NameColumn::numpy ? ElementType<T>::numpy : ElementType<T>::name);
  });
  return names;
}

namespace detail {
template <class F, class T, class... Rest>
decltype(auto) with_element_type_in(const std::string& name, F&& f, ElementTypeList<T, Rest...>) {
  if (name == ElementType<T>::name) return f.template operator()<T>();
  if constexpr (sizeof...(Rest) > 0)
    return with_element_type_in(name, f, ElementTypeList<Rest...>{});
  else
    throw UsageError("unknown element type '" + name + "' (" + element_type_names() + ")");
}
}  // namespace detail

/// f.template operator()<T>() for the type whose short name is `name`;
/// UsageError naming the known names otherwise.
template <class F>
decltype(auto) with_element_type(const std::string& name, F&& f) {
  return detail::with_element_type_in(name, f, NamedElementTypes{});
}

}  // namespace distarray
