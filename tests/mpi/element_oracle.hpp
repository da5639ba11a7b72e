#pragma once
// An element oracle independent of the library, for the MatrixTransform
// tests: values by global index, conjugation and comparison written out for
// every element type.

#include <distarray/core/types.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <complex>
#include <type_traits>

namespace distarray::testing {

template <class T>
struct complex_parts : std::false_type {};
template <class R>
struct complex_parts<std::complex<R>> : std::true_type {
  using real = R;
};
template <class R>
struct complex_parts<Kokkos::complex<R>> : std::true_type {
  using real = R;
};
template <class T>
constexpr bool complex_v = complex_parts<T>::value;

/// The element at global (i, j) of a matrix marked by `salt`.
template <class T>
T value_of(index_t i, index_t j, int salt) {
  const double v = double(i * 37 + j * 11 + salt) * 0.25 - 40;
  if constexpr (complex_v<T>) {
    using R = typename complex_parts<T>::real;
    return T(R(v), R(double(i - 2 * j + salt) * 0.5));
  } else {
    return T(v);
  }
}

/// conj(x) by its definition: the imaginary part negated.
template <class T>
T conjugated(const T& x) {
  if constexpr (complex_v<T>)
    return T(x.real(), -x.imag());
  else
    return x;
}

/// x == y for integers, within rounding (relative to |y|) otherwise; NaN equals NaN.
template <class T>
bool same(const T& x, const T& y) {
  if constexpr (complex_v<T>) {
    using R = typename complex_parts<T>::real;
    const double size = std::hypot(double(y.real()), double(y.imag()));
    const double tolerance = (std::is_same_v<R, float> ? 1e-5 : 1e-12) * (1 + (std::isnan(size) ? 0 : size));
    const auto part = [&](double u, double w) {
      return (std::isnan(u) && std::isnan(w)) || std::abs(u - w) <= tolerance;
    };
    return part(x.real(), y.real()) && part(x.imag(), y.imag());
  } else if constexpr (std::is_floating_point_v<T>) {
    const double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
    return (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= tolerance * (1 + std::abs(y));
  } else {
    return x == y;
  }
}

}  // namespace distarray::testing
