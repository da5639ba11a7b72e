/* A plain ScaLAPACK program: no distarray in its source.  It moves an
 * M x N matrix from a 32 x 32 block-cyclic layout on a P x Q grid to 50 x 20
 * blocks on a Q x P grid in column order (pdgemr2d_), then forms
 * C = 0.5*C + 2*B^T on the first grid (pdtran_), and prints a checksum.
 * CMake builds it twice: against ScaLAPACK (scalapack_dropin_reference)
 * and with distarray's drop-in linked ahead of ScaLAPACK
 * (scalapack_dropin_distarray); both print the same lines.
 *
 *   mpiexec -n 4 ./scalapack_dropin_distarray [M N]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int* me, int* procs);
void Cblacs_get(int ctxt, int what, int* value);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
void pdgemr2d_(const int* m, const int* n, const double* a, const int* ia, const int* ja, const int* desca, double* b,
               const int* ib, const int* jb, const int* descb, const int* ictxt);
void pdtran_(const int* m, const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
             const int* desca, const double* beta, double* c, const int* ic, const int* jc, const int* descc);

/* A matrix on a grid: descriptor and local array (NULL outside the grid). */
typedef struct {
  int desc[9];
  int rows, cols;
  double* local;
} Matrix;

static Matrix matrix(int ctxt, int m, int n, int mb, int nb, int rsrc, int csrc) {
  Matrix x = {{1, -1, m, n, mb, nb, rsrc, csrc, 1}, 0, 0, NULL};
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  if (ctxt >= 0) Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  if (myrow < 0 || myrow >= nprow) return x;
  x.rows = numroc_(&m, &mb, &myrow, &rsrc, &nprow);
  x.cols = numroc_(&n, &nb, &mycol, &csrc, &npcol);
  x.desc[1] = ctxt;
  x.desc[8] = x.rows > 1 ? x.rows : 1;
  x.local = calloc((size_t)x.desc[8] * (size_t)(x.cols > 1 ? x.cols : 1), sizeof(double));
  return x;
}

/* Global index of local index l on process p (ScaLAPACK's INDXL2G, 0-based). */
static int global(int l, int nb, int p, int src, int procs) {
  return (l / nb * procs + (p - src + procs) % procs) * nb + l % nb;
}

/* Sum over the matrix of element * (weight of its global place), over all ranks. */
static double checksum(const Matrix* x, int ctxt) {
  double sum = 0;
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  if (x->local) {
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    for (int j = 0; j < x->cols; ++j)
      for (int i = 0; i < x->rows; ++i) {
        const int gi = global(i, x->desc[4], myrow, x->desc[6], nprow);
        const int gj = global(j, x->desc[5], mycol, x->desc[7], npcol);
        sum += x->local[i + (size_t)j * x->desc[8]] * (1.0 + (gi * 7 + gj * 13) % 101);
      }
  }
  double all = 0;
  MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int m = argc > 2 ? atoi(argv[1]) : 1000, n = argc > 2 ? atoi(argv[2]) : 700;
  int me = 0, procs = 1;
  Cblacs_pinfo(&me, &procs);
  int p = 1;
  while ((p + 1) * (p + 1) <= procs && procs % (p + 1) == 0) ++p;
  const int q = procs / p;
  int first = 0, second = 0, all = 0;
  Cblacs_get(0, 0, &first);
  Cblacs_gridinit(&first, "Row", p, q);
  Cblacs_get(0, 0, &second);
  Cblacs_gridinit(&second, "Col", q, p);
  Cblacs_get(0, 0, &all);
  Cblacs_gridinit(&all, "Row", 1, procs);

  Matrix a = matrix(first, m, n, 32, 32, 0, 0);
  Matrix b = matrix(second, m, n, 50, 20, q > 1 ? 1 : 0, 0);
  Matrix c = matrix(first, n, m, 16, 24, 0, q - 1);
  for (int j = 0; a.local && j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i) a.local[i + (size_t)j * a.desc[8]] = (double)(me * 100000 + i * 37 + j) / 1024;
  for (int j = 0; c.local && j < c.cols; ++j)
    for (int i = 0; i < c.rows; ++i) c.local[i + (size_t)j * c.desc[8]] = (double)(i - j) / 64;

  const int one = 1;
  pdgemr2d_(&m, &n, a.local, &one, &one, a.desc, b.local, &one, &one, b.desc, &all);
  /* C and B must share a context for pdtran_: bring B back to the first grid's layout of A first. */
  Matrix b1 = matrix(first, m, n, 24, 16, p - 1, 0);
  pdgemr2d_(&m, &n, b.local, &one, &one, b.desc, b1.local, &one, &one, b1.desc, &all);
  const double alpha = 2, beta = 0.5;
  pdtran_(&n, &m, &alpha, b1.local, &one, &one, b1.desc, &beta, c.local, &one, &one, c.desc);

  const double sa = checksum(&a, first), sb = checksum(&b, second), sc = checksum(&c, first);
  if (me == 0)
    printf("%d x %d on %dx%d and %dx%d: checksum A %.15e B %.15e C %.15e\n", m, n, p, q, q, p, sa, sb, sc);
  free(a.local), free(b.local), free(b1.local), free(c.local);
  Cblacs_gridexit(first), Cblacs_gridexit(second), Cblacs_gridexit(all);
  MPI_Finalize();
  return 0;
}
