#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/element_op.hpp is internal: include <distarray/redist.hpp>"
#endif
// What a pack or unpack kernel does to each element it moves.  PlainCopy
// moves it (a redistribution).  ScaledCopy computes B = alpha*op(A) + beta*B
// on the way: the pack writes alpha*a (conjugated for op = C) into the
// buffer and the unpack writes buffer + beta*b, or the buffer alone when
// beta is 0, so that B is never read then (BLAS semantics: NaN or
// uninitialised memory in B never reaches the result).

#include <Kokkos_Core.hpp>

#include <complex>
#include <type_traits>

namespace distarray::detail {

/// True for the complex types the library accepts: std::complex and
/// Kokkos::complex of float or double.
template <class T>
struct is_complex : std::false_type {};
template <class R>
struct is_complex<Kokkos::complex<R>> : std::true_type {};
template <class R>
struct is_complex<std::complex<R>> : std::true_type {};

/// The complex conjugate of v; v itself for a real or integer type.  Built
/// from real() and imag() (constexpr members of both complex types) rather
/// than std::conj, which device code cannot call.
template <class T>
KOKKOS_INLINE_FUNCTION T conjugate_of(const T& v) {
  if constexpr (is_complex<T>::value)
    return T(v.real(), -v.imag());
  else
    return v;
}

template <class T>
struct PlainCopy {
  KOKKOS_INLINE_FUNCTION T packed(const T& a) const { return a; }
  KOKKOS_INLINE_FUNCTION void unpack(T& b, const T& v) const { b = v; }
};

template <class T>
struct ScaledCopy {
  T alpha{1};
  T beta{0};
  bool conjugate = false;

  KOKKOS_INLINE_FUNCTION T packed(const T& a) const { return alpha * (conjugate ? conjugate_of(a) : a); }
  KOKKOS_INLINE_FUNCTION void unpack(T& b, const T& v) const {
    if (beta == T(0))
      b = v;
    else
      b = v + beta * b;
  }
  /// True when the copy is a plain one (the kernels then take the fast path).
  bool plain() const { return alpha == T(1) && beta == T(0) && !(conjugate && is_complex<T>::value); }
};

}  // namespace distarray::detail
