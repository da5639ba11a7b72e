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

#include <type_traits>

namespace distarray::detail {

template <class T>
struct is_kokkos_complex : std::false_type {};
template <class R>
struct is_kokkos_complex<Kokkos::complex<R>> : std::true_type {};

/// The complex conjugate of v; v itself for a real or integer type.
template <class T>
KOKKOS_INLINE_FUNCTION T conjugate_of(const T& v) {
  if constexpr (is_kokkos_complex<T>::value)
    return Kokkos::conj(v);
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
  bool plain() const { return alpha == T(1) && beta == T(0) && !(conjugate && is_kokkos_complex<T>::value); }
};

}  // namespace distarray::detail
