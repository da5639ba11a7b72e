#pragma once
// ScaLAPACK's pdgemr2d on distarray's arrays.  A BLACS grid is laid out in
// distarray's row-major rank order (rank first + r*cols + c at (r, c)), so a
// ScaLAPACK local array — column-major, leading dimension the local row
// count — is exactly the local block of a column-major (Kokkos::LayoutLeft)
// DistArray of layout "cyclic(mb),cyclic(nb) on rowsxcols@first".

#include <distarray/core.hpp>

#include <algorithm>
#include <vector>

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridmap(int* context, int* usermap, int ldumap, int nprow, int npcol);
void Cblacs_gridexit(int context);
void Cpdgemr2d(int m, int n, double* a, int ia, int ja, int* desca, double* b, int ib, int jb, int* descb,
               int context);
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

/// pdgemr2d from one column-major array to another over the whole communicator.
class Pdgemr2d {
 public:
  Pdgemr2d(const distarray::Layout<2>& from, const distarray::Layout<2>& to, int my_rank, int ranks)
      : m_(int(from.shape()[0])), n_(int(from.shape()[1])), a_(from, my_rank), b_(to, my_rank) {
    whole_ = blacs_grid(1, ranks, 0);
  }
  ~Pdgemr2d() { Cblacs_gridexit(whole_); }

  void operator()(double* in, double* out) {
    double dummy = 0;  // ranks with an empty block still pass a valid pointer
    Cpdgemr2d(m_, n_, in ? in : &dummy, 1, 1, a_.desc, out ? out : &dummy, 1, 1, b_.desc, whole_);
  }

 private:
  int m_, n_;
  Descriptor a_, b_;
  int whole_ = -1;
};

}  // namespace compare
