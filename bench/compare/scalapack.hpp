#pragma once
// p?gemr2d on distarray's arrays: ScaLAPACK's own (Cpdgemr2d, Cpzgemr2d) and
// COSTA's ScaLAPACK-compatible wrapper (costa_pdgemr2d, costa_pzgemr2d) when
// COSTA is built (DISTARRAY_HAVE_COSTA).  A BLACS grid is laid out in
// distarray's row-major rank order (rank first + r*cols + c at (r, c)), so a
// ScaLAPACK local array — column-major, leading dimension the local row
// count — is exactly the local block of a column-major (Kokkos::LayoutLeft)
// DistArray of layout "cyclic(mb),cyclic(nb) on rowsxcols@first".

#include "elements.hpp"

#include <distarray/core.hpp>

#include <algorithm>
#include <vector>

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
void Cpzgemr2d(int m, int n, void* a, int ia, int ja, int* desca, void* b, int ib, int jb, int* descb,
               int context);
#ifdef DISTARRAY_HAVE_COSTA
void costa_pdgemr2d(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                    const int* desca, double* b, const int* ib, const int* jb, const int* descb,
                    const int* ictxt);
void costa_pzgemr2d(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                    const int* desca, double* b, const int* ib, const int* jb, const int* descb,
                    const int* ictxt);
#endif
}

namespace compare {

/// A BLACS context over ranks first.. of MPI_COMM_WORLD as a rows x cols grid
/// in row-major order; -1 on ranks outside it.
inline int blacs_grid(int rows, int cols, int first) {
  std::vector<int> map(std::size_t(rows) * std::size_t(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) map[std::size_t(r + c * rows)] = first + r * cols + c;  // ldumap = rows
  int context = 0;
  Cblacs_get(0, 0, &context);
  Cblacs_gridmap(&context, map.data(), rows, rows, cols);
  return context;
}

/// The ScaLAPACK descriptor of a column-major DistArray of a 2-D
/// "cyclic(mb),cyclic(nb)" layout on this rank (context -1 outside the grid,
/// as pdgemr2d expects).
struct Descriptor {
  int context = -1;
  int desc[9] = {};

  explicit Descriptor(const distarray::Layout<2>& l, int my_rank) {
    const auto& g = l.grid();
    context = blacs_grid(g.dims[0], g.dims[1], g.first_rank);
    const auto c = g.coord_of(my_rank);
    const int lld = c ? std::max<int>(1, int(l.local_extents(*c)[0])) : 1;
    const int fields[9] = {1,
                           c ? context : -1,
                           int(l.shape()[0]),
                           int(l.shape()[1]),
                           int(l.dist(0).block_size()),
                           int(l.dist(1).block_size()),
                           0,
                           0,
                           lld};
    std::copy(fields, fields + 9, desc);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (context >= 0) Cblacs_gridexit(context);
  }
};

/// Whose p?gemr2d runs.
enum class Gemr2d { scalapack, costa };

/// p?gemr2d from one column-major array to another over the whole communicator.
template <class T>
class Pxgemr2d {
 public:
  Pxgemr2d(Gemr2d who, const distarray::Layout<2>& from, const distarray::Layout<2>& to, int my_rank,
           int ranks)
      : who_(who), m_(int(from.shape()[0])), n_(int(from.shape()[1])), a_(from, my_rank), b_(to, my_rank) {
    whole_ = blacs_grid(1, ranks, 0);
  }
  ~Pxgemr2d() { Cblacs_gridexit(whole_); }

  void operator()(T* in, T* out) {
    T dummy{};  // ranks with an empty block still pass a valid pointer
    in = in ? in : &dummy;
    out = out ? out : &dummy;
    if (who_ == Gemr2d::scalapack) {
      if constexpr (is_complex<T>)
        Cpzgemr2d(m_, n_, in, 1, 1, a_.desc, out, 1, 1, b_.desc, whole_);
      else
        Cpdgemr2d(m_, n_, in, 1, 1, a_.desc, out, 1, 1, b_.desc, whole_);
      return;
    }
#ifdef DISTARRAY_HAVE_COSTA
    const int one = 1;
    auto* i = reinterpret_cast<double*>(in);
    auto* o = reinterpret_cast<double*>(out);
    (is_complex<T> ? costa_pzgemr2d : costa_pdgemr2d)(&m_, &n_, i, &one, &one, a_.desc, o, &one, &one,
                                                      b_.desc, &whole_);
#else
    throw distarray::Error("COSTA's pdgemr2d: COSTA is not in this build");
#endif
  }

 private:
  Gemr2d who_;
  int m_, n_;
  Descriptor a_, b_;
  int whole_ = -1;
};

}  // namespace compare
