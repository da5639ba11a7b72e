/* distarray's ScaLAPACK routines, C and Fortran callable.
 *
 * The prefixed names below (distarray_pdgemr2d, ...) are always available
 * from the library distarray::scalapack_api.  The drop-in library
 * distarray::scalapack also defines ScaLAPACK's own Fortran symbols
 * (pdgemr2d_, pdtran_, pzgeadd_, ...) over them, with ScaLAPACK's argument
 * lists: link it ahead of -lscalapack and a ScaLAPACK program calls
 * distarray's versions without a change (README, "ScaLAPACK drop-in").
 *
 * Arguments are pointers, as Fortran passes them; indices 1-based and
 * descriptors the 9-integer DTYPE_ = 1 descriptors of ScaLAPACK.  Complex
 * arrays hold (real, imaginary) pairs of float or double.
 *
 *   p?gemr2d: B(ib:ib+m-1, jb:jb+n-1) = A(ia:ia+m-1, ja:ja+n-1), between
 *             any two grids; ictxt spans both; outside A's (B's) grid pass
 *             a descriptor whose CTXT_ is -1.
 *   p?tran:   C = beta*C + alpha*A^T          (sub(C) m x n, sub(A) n x m)
 *   p?tranu:  the same for complex; p?tranc: C = beta*C + alpha*A^H
 *   p?geadd:  C = beta*C + alpha*op(A), op by trans: 'N', 'T' or 'C'
 *
 * beta = 0 never reads C; alpha = 0 never reads A.  A bad argument prints
 * ScaLAPACK's message ("parameter number N had an illegal value") with the
 * reason on every rank and returns without touching C; the number stays in
 * distarray_scalapack_last_error().  Plans are cached by (descriptors, op,
 * type): a loop with the same arguments plans once.
 */
#ifndef DISTARRAY_SCALAPACK_H
#define DISTARRAY_SCALAPACK_H

#ifdef __cplusplus
extern "C" {
#endif

#define DISTARRAY_GEMR2D(p, T)                                                                       \
  void distarray_##p##gemr2d(const int* m, const int* n, const T* a, const int* ia, const int* ja,   \
                             const int* desca, T* b, const int* ib, const int* jb, const int* descb, \
                             const int* ictxt);
#define DISTARRAY_TRAN(name, T)                                                                             \
  void distarray_##name(const int* m, const int* n, const T* alpha, const T* a, const int* ia,              \
                        const int* ja, const int* desca, const T* beta, T* c, const int* ic, const int* jc, \
                        const int* descc);
#define DISTARRAY_GEADD(p, T)                                                                          \
  void distarray_##p##geadd(const char* trans, const int* m, const int* n, const T* alpha, const T* a, \
                            const int* ia, const int* ja, const int* desca, const T* beta, T* c,       \
                            const int* ic, const int* jc, const int* descc);

DISTARRAY_GEMR2D(ps, float)
DISTARRAY_GEMR2D(pd, double)
DISTARRAY_GEMR2D(pc, float)  /* complex: pairs of float */
DISTARRAY_GEMR2D(pz, double) /* complex: pairs of double */
DISTARRAY_GEMR2D(pi, int)
DISTARRAY_TRAN(pstran, float)
DISTARRAY_TRAN(pdtran, double)
DISTARRAY_TRAN(pctranu, float)
DISTARRAY_TRAN(pztranu, double)
DISTARRAY_TRAN(pctranc, float)
DISTARRAY_TRAN(pztranc, double)
DISTARRAY_GEADD(ps, float)
DISTARRAY_GEADD(pd, double)
DISTARRAY_GEADD(pc, float)
DISTARRAY_GEADD(pz, double)

#undef DISTARRAY_GEMR2D
#undef DISTARRAY_TRAN
#undef DISTARRAY_GEADD

/** Frees every cached plan (collective over nothing: each rank frees its own). */
void distarray_scalapack_clear_cache(void);
/** Plans in the cache now. */
int distarray_scalapack_cached_plans(void);
/** 0 when the last call on this rank succeeded, else the number of the
    bad argument (as ScaLAPACK's INFO = -number). */
int distarray_scalapack_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
