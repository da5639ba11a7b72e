#pragma once
// ScaLAPACK's own routines (Debian's libscalapack-openmpi) and the BLACS
// calls the conformance test makes its grids with; C++ overloads by element
// type over the Fortran symbols.

#include <complex>

extern "C" {
void Cblacs_get(int ctxt, int what, int* value);
void Cblacs_gridmap(int* ctxt, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);

#define REFERENCE_GEMR2D(p, S)                                                                          \
  void p##gemr2d_(const int*, const int*, const S*, const int*, const int*, const int*, S*, const int*, \
                  const int*, const int*, const int*);
#define REFERENCE_TRAN(name, S)                                                                              \
  void name##_(const int*, const int*, const S*, const S*, const int*, const int*, const int*, const S*, S*, \
               const int*, const int*, const int*);
#define REFERENCE_GEADD(p, S)                                                                     \
  void p##geadd_(const char*, const int*, const int*, const S*, const S*, const int*, const int*, \
                 const int*, const S*, S*, const int*, const int*, const int*);
REFERENCE_GEMR2D(ps, float)
REFERENCE_GEMR2D(pd, double)
REFERENCE_GEMR2D(pc, float)
REFERENCE_GEMR2D(pz, double)
REFERENCE_GEMR2D(pi, int)
REFERENCE_TRAN(pstran, float)
REFERENCE_TRAN(pdtran, double)
REFERENCE_TRAN(pctranu, float)
REFERENCE_TRAN(pztranu, double)
REFERENCE_TRAN(pctranc, float)
REFERENCE_TRAN(pztranc, double)
REFERENCE_GEADD(ps, float)
REFERENCE_GEADD(pd, double)
REFERENCE_GEADD(pc, float)
REFERENCE_GEADD(pz, double)
#undef REFERENCE_GEMR2D
#undef REFERENCE_TRAN
#undef REFERENCE_GEADD
}
