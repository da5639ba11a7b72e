// The drop-in: ScaLAPACK's own Fortran symbols over distarray's routines.
// Only this library defines them, so that calling distarray instead of
// ScaLAPACK is a choice made at link time (README, "ScaLAPACK drop-in").
// TRANS is a Fortran CHARACTER: its hidden length argument, passed after
// the others, is not read (as in ScaLAPACK's own C sources).

#include <distarray/scalapack.h>

extern "C" {

#define DISTARRAY_GEMR2D_DROPIN(p, S)                                                                     \
  void p##gemr2d_(const int* m, const int* n, const S* a, const int* ia, const int* ja, const int* desca, \
                  S* b, const int* ib, const int* jb, const int* descb, const int* ictxt) {               \
    distarray_##p##gemr2d(m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                               \
  }
DISTARRAY_GEMR2D_DROPIN(ps, float)
DISTARRAY_GEMR2D_DROPIN(pd, double)
DISTARRAY_GEMR2D_DROPIN(pc, float)
DISTARRAY_GEMR2D_DROPIN(pz, double)
DISTARRAY_GEMR2D_DROPIN(pi, int)

#define DISTARRAY_TRAN_DROPIN(name, S)                                                                  \
  void name##_(const int* m, const int* n, const S* alpha, const S* a, const int* ia, const int* ja,    \
               const int* desca, const S* beta, S* c, const int* ic, const int* jc, const int* descc) { \
    distarray_##name(m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);                            \
  }
DISTARRAY_TRAN_DROPIN(pstran, float)
DISTARRAY_TRAN_DROPIN(pdtran, double)
DISTARRAY_TRAN_DROPIN(pctranu, float)
DISTARRAY_TRAN_DROPIN(pztranu, double)
DISTARRAY_TRAN_DROPIN(pctranc, float)
DISTARRAY_TRAN_DROPIN(pztranc, double)

#define DISTARRAY_GEADD_DROPIN(p, S)                                                                       \
  void p##geadd_(const char* trans, const int* m, const int* n, const S* alpha, const S* a, const int* ia, \
                 const int* ja, const int* desca, const S* beta, S* c, const int* ic, const int* jc,       \
                 const int* descc) {                                                                       \
    distarray_##p##geadd(trans, m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);                    \
  }
DISTARRAY_GEADD_DROPIN(ps, float)
DISTARRAY_GEADD_DROPIN(pd, double)
DISTARRAY_GEADD_DROPIN(pc, float)
DISTARRAY_GEADD_DROPIN(pz, double)
}
