#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/kernels/element_op.hpp is internal: include <distarray/redist.hpp>"
#endif
// What a pack or unpack kernel does to each element it moves.  PlainCopy
// moves it (a redistribution).  ScaledCopy computes B = alpha*op(A) + beta*B
// on the way: the pack writes alpha*a (conjugated for op = C) into the
// buffer and the unpack writes buffer + beta*b, or the buffer alone when
// beta is 0, so that B is never read then (BLAS semantics: NaN or
// uninitialised memory in B never reaches the result).
//
// Complex elements are computed on their real and imaginary parts, which
// std::complex and Kokkos::complex both lay out as two reals: std::complex's
// operators and constructors are host-only, and a kernel must not call them.

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

/// out = alpha * x, x conjugated first when `conjugate` (complex only).
template <class T>
KOKKOS_INLINE_FUNCTION void scaled(T& out, const T& alpha, const T& x, bool conjugate) {
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    const R* a = reinterpret_cast<const R*>(&alpha);
    const R* v = reinterpret_cast<const R*>(&x);
    const R vi = conjugate ? -v[1] : v[1];
    R* o = reinterpret_cast<R*>(&out);
    const R re = a[0] * v[0] - a[1] * vi, im = a[0] * vi + a[1] * v[0];
    o[0] = re;
    o[1] = im;
  } else {
    out = alpha * x;
  }
}

/// out = v + beta * out.
template <class T>
KOKKOS_INLINE_FUNCTION void accumulated(T& out, const T& v, const T& beta) {
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    const R* b = reinterpret_cast<const R*>(&beta);
    const R* w = reinterpret_cast<const R*>(&v);
    R* o = reinterpret_cast<R*>(&out);
    const R re = w[0] + b[0] * o[0] - b[1] * o[1], im = w[1] + b[0] * o[1] + b[1] * o[0];
    o[0] = re;
    o[1] = im;
  } else {
    out = v + beta * out;
  }
}

/// out = 0, without reading it.
template <class T>
KOKKOS_INLINE_FUNCTION void zeroed(T& out) {
  if constexpr (is_complex<T>::value) {
    using R = typename T::value_type;
    R* o = reinterpret_cast<R*>(&out);
    o[0] = o[1] = R(0);
  } else {
    out = T(0);
  }
}

template <class T>
struct PlainCopy {
  KOKKOS_INLINE_FUNCTION void pack(T& buffer, const T& a) const { buffer = a; }
  KOKKOS_INLINE_FUNCTION void unpack(T& b, const T& v) const { b = v; }
};

template <class T>
struct ScaledCopy {
  ScaledCopy() = default;
  /// On the host: the comparisons with 0 and 1 are made here, not in kernels.
  ScaledCopy(T alpha, T beta, bool conjugate)
      : alpha(alpha),
        beta(beta),
        conjugate(conjugate && is_complex<T>::value),
        beta_zero(beta == T(0)),
        plain_(alpha == T(1) && beta == T(0) && !this->conjugate) {}

  T alpha{1};
  T beta{0};
  bool conjugate = false;
  bool beta_zero = true;

  KOKKOS_INLINE_FUNCTION void pack(T& buffer, const T& a) const { scaled(buffer, alpha, a, conjugate); }
  KOKKOS_INLINE_FUNCTION void unpack(T& b, const T& v) const {
    if (beta_zero)
      b = v;
    else
      accumulated(b, v, beta);
  }
  /// True when the copy is a plain one (the kernels then take the fast path).
  bool plain() const { return plain_; }

 private:
  bool plain_ = true;
};

/// Op's pack and unpack in one: a source element straight into its
/// destination (the message to oneself, own_message.hpp).  Both calls take
/// (destination, source), so a joined table may run as a pack or an unpack.
template <class T, class Op>
struct Direct {
  Op op;
  KOKKOS_INLINE_FUNCTION void pack(T& destination, const T& source) const { step(destination, source); }
  KOKKOS_INLINE_FUNCTION void unpack(T& destination, const T& source) const { step(destination, source); }

 private:
  KOKKOS_INLINE_FUNCTION void step(T& destination, const T& source) const {
    T packed = source;
    op.pack(packed, source);
    op.unpack(destination, packed);
  }
};

/// True for the ops that only move an element's bits (a redistribution's
/// copy, to a buffer or straight to its destination): the host kernels may
/// then store them with non-temporal stores (host_copy_kernels.hpp).
template <class Op>
struct is_plain_copy : std::false_type {};
template <class T>
struct is_plain_copy<PlainCopy<T>> : std::true_type {};
template <class T>
struct is_plain_copy<Direct<T, PlainCopy<T>>> : std::true_type {};

}  // namespace distarray::detail
