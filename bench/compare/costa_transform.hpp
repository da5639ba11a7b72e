#pragma once
// COSTA's native redistribution, costa::transform between two block-cyclic
// grid layouts (what a COSTA user calls; it plans on every call).  distarray's
// grids are row-major over ranks ('R'), local blocks column-major ('C') with
// the local row count as leading dimension, as in scalapack.hpp.  Built when
// COSTA is found (DISTARRAY_HAVE_COSTA).

#ifdef DISTARRAY_HAVE_COSTA

#include "elements.hpp"

#include <distarray/core.hpp>

#include <costa/grid2grid/transform.hpp>
#include <costa/layout.hpp>

#include <algorithm>

namespace compare {

template <class T>
costa::grid_layout<T> costa_layout_of(const distarray::Layout<2>& l, T* local, int rank) {
  const auto& g = l.grid();
  const auto c = g.coord_of(rank);
  const int m = int(l.shape()[0]), n = int(l.shape()[1]);
  const int lld = c ? std::max<int>(1, int(l.local_extents(*c)[0])) : 1;
  return costa::block_cyclic_layout<T>(m, n, int(l.dist(0).block_size()), int(l.dist(1).block_size()), 1, 1,
                                       m, n, g.dims[0], g.dims[1], 'R', 0, 0, local, lld, 'C',
                                       rank - g.first_rank);
}

template <class T>
class CostaTransform {
 public:
  CostaTransform(const distarray::Layout<2>& from, T* a, const distarray::Layout<2>& to, T* b, MPI_Comm comm)
      : comm_(comm), a_(costa_layout_of(from, a, rank_of(comm))), b_(costa_layout_of(to, b, rank_of(comm))) {}
  void operator()() { costa::transform(a_, b_, comm_); }

 private:
  static int rank_of(MPI_Comm comm) {
    int r = 0;
    MPI_Comm_rank(comm, &r);
    return r;
  }
  MPI_Comm comm_;
  costa::grid_layout<T> a_, b_;
};

}  // namespace compare

#endif
