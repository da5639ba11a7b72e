#pragma once
// ScaLAPACK's p?gemr2d and p?tran(u) on distarray's arrays, by three
// implementations: ScaLAPACK's own, COSTA's ScaLAPACK-compatible wrapper
// (costa_p*, when COSTA is built: DISTARRAY_HAVE_COSTA), and distarray's
// drop-in.  The drop-in's Fortran symbols (pdgemr2d_, ...) call the prefixed
// distarray_p* functions straight through; a program cannot link both them
// and ScaLAPACK's own, so the bench calls the prefixed ones.
//
// A BLACS grid is laid out in distarray's row-major rank order (rank
// first + r*cols + c at (r, c)), so a ScaLAPACK local array — column-major,
// leading dimension the local row count — is exactly the local block of a
// column-major (Kokkos::LayoutLeft) DistArray of layout
// "cyclic(mb),cyclic(nb) on rowsxcols@first".

#include "elements.hpp"

#include <distarray/scalapack.h>
#include <distarray/core.hpp>

#include <algorithm>
#include <optional>
#include <vector>

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
void Cpzgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);  // complex: pairs of doubles
void pdtran_(const int* m, const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
             const int* desca, const double* beta, double* c, const int* ic, const int* jc, const int* descc);
void pztranu_(const int* m, const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
              const int* desca, const double* beta, double* c, const int* ic, const int* jc,
              const int* descc);
#ifdef DISTARRAY_HAVE_COSTA
void costa_pdgemr2d(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                    const int* desca, double* b, const int* ib, const int* jb, const int* descb,
                    const int* ictxt);
void costa_pzgemr2d(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                    const int* desca, double* b, const int* ib, const int* jb, const int* descb,
                    const int* ictxt);
void costa_pdtran(const int* m, const int* n, double* alpha, const double* a, const int* ia, const int* ja,
                  const int* desca, const double* beta, double* c, const int* ic, const int* jc,
                  const int* descc);
void costa_pztranu(const int* m, const int* n, double* alpha, const double* a, const int* ia, const int* ja,
                   const int* desca, const double* beta, double* c, const int* ic, const int* jc,
                   const int* descc);
#endif
}

namespace compare {

/// Whose routine runs: ScaLAPACK's, COSTA's wrapper or distarray's drop-in.
enum class Implementation { scalapack, costa, distarray };

/// A BLACS context over ranks first.. of MPI_COMM_WORLD as a rows x cols grid
/// in row-major order; -1 on ranks outside it.  Freed on destruction.
class BlacsGrid {
 public:
  BlacsGrid(int rows, int cols, int first) {
    std::vector<int> map(std::size_t(rows) * std::size_t(cols));
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) map[std::size_t(r + c * rows)] = first + r * cols + c;  // ldumap = rows
    Cblacs_get(0, 0, &context_);
    Cblacs_gridmap(&context_, map.data(), rows, rows, cols);
  }
  explicit BlacsGrid(const distarray::GridShape<2>& g) : BlacsGrid(g.dims[0], g.dims[1], g.first_rank) {}
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;
  ~BlacsGrid() {
    if (context_ >= 0) Cblacs_gridexit(context_);
  }
  int context() const { return context_; }

 private:
  int context_ = -1;
};

/// The ScaLAPACK descriptor of a column-major DistArray of a 2-D
/// "cyclic(mb),cyclic(nb)" layout on this rank, over `grid` (its context is
/// -1 outside the grid, as pdgemr2d expects).
struct Descriptor {
  int desc[9] = {};

  Descriptor(const distarray::Layout<2>& l, const BlacsGrid& grid, int my_rank) {
    const auto c = l.grid().coord_of(my_rank);
    const int lld = c ? std::max<int>(1, int(l.local_extents(*c)[0])) : 1;
    const int fields[9] = {1,
                           c ? grid.context() : -1,
                           int(l.shape()[0]),
                           int(l.shape()[1]),
                           int(l.dist(0).block_size()),
                           int(l.dist(1).block_size()),
                           0,
                           0,
                           lld};
    std::copy(fields, fields + 9, desc);
  }
};

/// A ScaLAPACK routine's operands: the m x n result's layout `to`, the
/// source's `from`, their grids (one context for both when `one_grid`) and
/// descriptors.  Local arrays are passed as doubles (pairs of them for
/// complex), as the routines take them; a rank with an empty block still
/// passes a valid pointer.
template <class T>
class Operands {
 public:
  Operands(const distarray::Layout<2>& from, const distarray::Layout<2>& to, int my_rank, bool one_grid)
      : m_(int(to.shape()[0])),
        n_(int(to.shape()[1])),
        a_grid_(from.grid()),
        b_grid_(one_grid ? std::optional<BlacsGrid>() : std::optional<BlacsGrid>(std::in_place, to.grid())),
        a_(from, a_grid_, my_rank),
        b_(to, one_grid ? a_grid_ : *b_grid_, my_rank) {
    const auto &f = from.grid(), &t = to.grid();
    if (one_grid && (f.dims != t.dims || f.first_rank != t.first_rank))
      throw distarray::UsageError("'" + from.to_string() + "' and '" + to.to_string() +
                                  "' are not on one grid");
  }

 protected:
  double* in(T* p) { return reinterpret_cast<double*>(p ? p : &dummy_); }
  double* out(T* p) { return reinterpret_cast<double*>(p ? p : &dummy_); }

  const int one_ = 1;
  int m_, n_;
  BlacsGrid a_grid_;
  std::optional<BlacsGrid> b_grid_;
  Descriptor a_, b_;
  T dummy_{};
};

/// p?gemr2d from one column-major array to another over the whole communicator.
template <class T>
class Pxgemr2d : Operands<T> {
 public:
  Pxgemr2d(Implementation who, const distarray::Layout<2>& from, const distarray::Layout<2>& to, int my_rank,
           int ranks)
      : Operands<T>(from, to, my_rank, false), who_(who), whole_(1, ranks, 0) {}

  void operator()(T* in, T* out) {
    double *i = this->in(in), *o = this->out(out);
    int *a = this->a_.desc, *b = this->b_.desc, *m = &this->m_, *n = &this->n_, context = whole_.context();
    const int* one = &this->one_;
    switch (who_) {
      case Implementation::scalapack:
        (is_complex<T> ? Cpzgemr2d : Cpdgemr2d)(*m, *n, i, 1, 1, a, o, 1, 1, b, context);
        return;
      case Implementation::distarray:
        (is_complex<T> ? distarray_pzgemr2d : distarray_pdgemr2d)(m, n, i, one, one, a, o, one, one, b,
                                                                  &context);
        return;
      case Implementation::costa:
#ifdef DISTARRAY_HAVE_COSTA
        (is_complex<T> ? costa_pzgemr2d : costa_pdgemr2d)(m, n, i, one, one, a, o, one, one, b, &context);
        return;
#else
        throw distarray::Error("COSTA's pdgemr2d: COSTA is not in this build");
#endif
    }
  }

 private:
  Implementation who_;
  BlacsGrid whole_;
};

/// C = A^T by p?tran (p?tranu for complex: no conjugation), alpha = 1 and
/// beta = 0; A and C on the same grid, as PBLAS requires.  Ranks outside the
/// grid do not call it.
template <class T>
class Pxtran : Operands<T> {
 public:
  Pxtran(Implementation who, const distarray::Layout<2>& from, const distarray::Layout<2>& to, int my_rank)
      : Operands<T>(from, to, my_rank, true), who_(who) {}

  void operator()(T* in, T* out) {
    if (this->b_.desc[1] < 0) return;
    double *i = this->in(in), *o = this->out(out);
    int *a = this->a_.desc, *c = this->b_.desc, *m = &this->m_, *n = &this->n_;
    const int* one = &this->one_;
    T alpha(1), beta(0);
    double *alpha_ = reinterpret_cast<double*>(&alpha), *beta_ = reinterpret_cast<double*>(&beta);
    switch (who_) {
      case Implementation::scalapack:
        (is_complex<T> ? pztranu_ : pdtran_)(m, n, alpha_, i, one, one, a, beta_, o, one, one, c);
        return;
      case Implementation::distarray:
        (is_complex<T> ? distarray_pztranu : distarray_pdtran)(m, n, alpha_, i, one, one, a, beta_, o, one,
                                                               one, c);
        return;
      case Implementation::costa:
#ifdef DISTARRAY_HAVE_COSTA
        (is_complex<T> ? costa_pztranu : costa_pdtran)(m, n, alpha_, i, one, one, a, beta_, o, one, one, c);
        return;
#else
        throw distarray::Error("COSTA's pdtran: COSTA is not in this build");
#endif
    }
  }

 private:
  Implementation who_;
};

}  // namespace compare
