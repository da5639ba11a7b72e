#pragma once
// heFFTe's reshapes (heffte::make_reshape3d on the FFTW backend: alltoallv,
// pipelined point-to-point, point-to-point) between two layouts of box
// distributions (block or * per dimension), a 2-D array as a 3-D box of depth
// 1.  A box's order names its dimensions from the fastest: {1, 0, 2} for
// row-major local blocks, {0, 1, 2} for column-major ones; heFFTe transposes
// inside its pack when the two orders differ.  Built when heFFTe is found
// (DISTARRAY_HAVE_HEFFTE).

#ifdef DISTARRAY_HAVE_HEFFTE

#include "elements.hpp"

#include <distarray/core.hpp>

#include <heffte.h>

#include <memory>
#include <vector>

namespace compare {

/// Every rank's box of a 2-D layout of box distributions, in rank order.
inline std::vector<heffte::box3d<int>> boxes_of(const distarray::Layout<2>& l, distarray::StorageOrder order,
                                                int ranks) {
  const std::array<int, 3> fastest_first =
      order == distarray::StorageOrder::row_major ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2};
  std::vector<heffte::box3d<int>> boxes;
  for (int r = 0; r < ranks; ++r) {
    const auto c = l.grid().coord_of(r);
    const distarray::Index<2> extents = c ? l.local_extents(*c) : distarray::Index<2>{};
    if (!c || extents[0] == 0 || extents[1] == 0) {
      boxes.emplace_back(std::array<int, 3>{0, 0, 0}, std::array<int, 3>{-1, -1, -1}, fastest_first);
      continue;
    }
    const distarray::Index<2> low = l.global_index(*c, {0, 0});
    boxes.emplace_back(std::array<int, 3>{int(low[0]), int(low[1]), 0},
                       std::array<int, 3>{int(low[0] + extents[0] - 1), int(low[1] + extents[1] - 1), 0},
                       fastest_first);
  }
  return boxes;
}

template <class T>
class HeffteReshape {
 public:
  HeffteReshape(const distarray::Layout<2>& from, distarray::StorageOrder from_order,
                const distarray::Layout<2>& to, distarray::StorageOrder to_order,
                heffte::reshape_algorithm algorithm, MPI_Comm comm) {
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    heffte::plan_options options(heffte::backend::fftw{});
    options.algorithm = algorithm;
    reshape_ = heffte::make_reshape3d<heffte::backend::fftw>(nullptr, boxes_of(from, from_order, ranks),
                                                             boxes_of(to, to_order, ranks), comm, options);
    workspace_.resize(reshape_ ? reshape_->size_workspace() : 0);
  }
  void operator()(const T* in, T* out) { reshape_->apply(1, in, out, workspace_.data()); }

 private:
  std::unique_ptr<heffte::reshape3d_base<int>> reshape_;
  std::vector<T> workspace_;
};

}  // namespace compare

#endif
