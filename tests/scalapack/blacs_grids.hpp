#pragma once
// BLACS grids and ScaLAPACK local arrays for the conformance test: a grid
// on any ranks of MPI_COMM_WORLD in any order, a descriptor (CTXT_ -1 outside
// the grid), and a local array with padding filled from a global formula.

#include "scalapack_reference.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <vector>

namespace distarray::testing {

struct BlacsGrid {
  int ctxt = -1;
  int rows = 1, cols = 1;
  int row = -1, col = -1;
  bool inside() const { return row >= 0; }

  /// Collective over MPI_COMM_WORLD: `ranks[r * cols + c]` at grid place (r, c).
  BlacsGrid(int rows_, int cols_, const std::vector<int>& ranks) : rows(rows_), cols(cols_) {
    std::vector<int> map(ranks.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) map[std::size_t(r + c * rows)] = ranks[std::size_t(r * cols + c)];
    Cblacs_get(0, 0, &ctxt);
    Cblacs_gridmap(&ctxt, map.data(), rows, rows, cols);
    int nr = 0, nc = 0;
    if (ctxt >= 0) Cblacs_gridinfo(ctxt, &nr, &nc, &row, &col);
    if (row < 0 || row >= rows) row = col = -1, ctxt = -1;
  }
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;
  ~BlacsGrid() {
    if (ctxt >= 0) Cblacs_gridexit(ctxt);
  }
};

/// ScaLAPACK's NUMROC.
inline int numroc(int n, int nb, int p, int src, int procs) {
  const int blocks = (n + nb - 1) / nb, first = ((p - src) % procs + procs) % procs;
  if (first >= blocks) return 0;
  const int mine = (blocks - 1 - first) / procs + 1;
  return (mine - 1) * nb + ((blocks - 1 - first) % procs == 0 ? n - (blocks - 1) * nb : nb);
}

/// A matrix on a grid: its descriptor on this rank and its local array.
template <class T>
struct LocalMatrix {
  std::array<int, 9> desc{};
  std::vector<T> local;

  /// M x N in MB x NB blocks from (rsrc, csrc); `pad` extra rows of LLD_;
  /// element (i, j) (0-based global) = f(i, j), padding = `padding`.
  template <class F>
  LocalMatrix(const BlacsGrid& g, int m, int n, int mb, int nb, int rsrc, int csrc, int pad, F&& f,
              T padding) {
    const int rows = g.inside() ? numroc(m, mb, g.row, rsrc, g.rows) : 0;
    const int cols = g.inside() ? numroc(n, nb, g.col, csrc, g.cols) : 0;
    const int lld = std::max(rows, 1) + pad;
    desc = {1, g.ctxt, m, n, mb, nb, rsrc, csrc, lld};
    local.assign(std::size_t(lld) * std::size_t(std::max(cols, 1)), padding);
    for (int j = 0; j < cols; ++j)
      for (int i = 0; i < rows; ++i) {
        const int gi = (i / mb * g.rows + ((g.row - rsrc) % g.rows + g.rows) % g.rows) * mb + i % mb;
        const int gj = (j / nb * g.cols + ((g.col - csrc) % g.cols + g.cols) % g.cols) * nb + j % nb;
        local[std::size_t(i + j * lld)] = f(gi, gj);
      }
  }
};

}  // namespace distarray::testing
