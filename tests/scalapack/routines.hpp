#pragma once
// Each routine of the conformance test twice, ScaLAPACK's and distarray's,
// behind one signature per kind, chosen by element type: gemr2d(ref, ...),
// tran(ref, conjugate, ...), geadd(ref, trans, ...).

#include "scalapack_reference.hpp"

#include <distarray/scalapack.h>

#include <complex>
#include <type_traits>

namespace distarray::testing {

template <class T>
struct Real {
  using type = T;
};
template <class R>
struct Real<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename Real<T>::type;

/// An array of T as the Fortran symbols take it (complex: pairs of reals).
template <class T>
const real_t<T>* raw(const T* p) {
  return reinterpret_cast<const real_t<T>*>(p);
}
template <class T>
real_t<T>* raw(T* p) {
  return reinterpret_cast<real_t<T>*>(p);
}

template <class T>
void gemr2d(bool reference, int m, int n, const T* a, int ia, int ja, const int* desca, T* b, int ib, int jb,
            const int* descb, int ictxt) {
#define CALL(p)                                                                            \
  reference ? p##gemr2d_(&m, &n, raw(a), &ia, &ja, desca, raw(b), &ib, &jb, descb, &ictxt) \
            : distarray_##p##gemr2d(&m, &n, raw(a), &ia, &ja, desca, raw(b), &ib, &jb, descb, &ictxt)
  if constexpr (std::is_same_v<T, float>) CALL(ps);
  if constexpr (std::is_same_v<T, double>) CALL(pd);
  if constexpr (std::is_same_v<T, std::complex<float>>) CALL(pc);
  if constexpr (std::is_same_v<T, std::complex<double>>) CALL(pz);
  if constexpr (std::is_same_v<T, int>) CALL(pi);
#undef CALL
}

template <class T>
void tran(bool reference, bool conjugate, int m, int n, T alpha, const T* a, int ia, int ja, const int* desca,
          T beta, T* c, int ic, int jc, const int* descc) {
#define CALL(name)                                                                                 \
  reference                                                                                        \
      ? name##_(&m, &n, raw(&alpha), raw(a), &ia, &ja, desca, raw(&beta), raw(c), &ic, &jc, descc) \
      : distarray_##name(&m, &n, raw(&alpha), raw(a), &ia, &ja, desca, raw(&beta), raw(c), &ic, &jc, descc)
  if constexpr (std::is_same_v<T, float>) CALL(pstran);
  if constexpr (std::is_same_v<T, double>) CALL(pdtran);
  if constexpr (std::is_same_v<T, std::complex<float>>) conjugate ? CALL(pctranc) : CALL(pctranu);
  if constexpr (std::is_same_v<T, std::complex<double>>) conjugate ? CALL(pztranc) : CALL(pztranu);
#undef CALL
}

template <class T>
void geadd(bool reference, char trans, int m, int n, T alpha, const T* a, int ia, int ja, const int* desca,
           T beta, T* c, int ic, int jc, const int* descc) {
#define CALL(p)                                                                                              \
  reference                                                                                                  \
      ? p##geadd_(&trans, &m, &n, raw(&alpha), raw(a), &ia, &ja, desca, raw(&beta), raw(c), &ic, &jc, descc) \
      : distarray_##p##geadd(&trans, &m, &n, raw(&alpha), raw(a), &ia, &ja, desca, raw(&beta), raw(c), &ic,  \
                             &jc, descc)
  if constexpr (std::is_same_v<T, float>) CALL(ps);
  if constexpr (std::is_same_v<T, double>) CALL(pd);
  if constexpr (std::is_same_v<T, std::complex<float>>) CALL(pc);
  if constexpr (std::is_same_v<T, std::complex<double>>) CALL(pz);
#undef CALL
}

}  // namespace distarray::testing
