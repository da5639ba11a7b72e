#pragma once
// BlockCyclicMatrix: a 2-D matrix in ScaLAPACK's general block-cyclic form
// (ScaLAPACK Users' Guide Sec. 4.3): per axis a block size and the process
// holding the first block (RSRC_, CSRC_), any communicator rank at each grid
// process (a BLACS grid in row, column or user-map order), and a local array
// stored column- or row-major with a leading dimension that may exceed the
// local extent (LLD_ padding, never touched).  A DistArray<T, 2> is the case
// of source 0 and a row-major rank grid (matrix_of).  MatrixTransform
// (matrix_transform.hpp) moves and combines submatrices of two of them.

#include <distarray/core/layout.hpp>
#include <distarray/core/storage_order.hpp>

#include <array>
#include <optional>
#include <vector>

namespace distarray {

/// One axis: `extent` elements in blocks of `block`, dealt round-robin over
/// `procs` processes starting at process `source`.
struct CyclicAxis {
  index_t extent = 0;
  index_t block = 1;
  int procs = 1;
  int source = 0;

  /// The process holding global index g.
  int owner(index_t g) const { return int((g / block + source) % procs); }
  /// g's index in its owner's local array.
  index_t local_index(index_t g) const { return g / (block * procs) * block + g % block; }
  /// The global index of local index l of process p (ScaLAPACK's INDXL2G).
  index_t global_index(int p, index_t l) const {
    return (l / block * procs + (index_t(p) - source + procs) % procs) * block + l % block;
  }
  /// The elements process p holds (ScaLAPACK's NUMROC).
  index_t local_extent(int p) const;
  friend bool operator==(const CyclicAxis&, const CyclicAxis&) = default;
};

/// op(A) of a transform B = alpha*op(A) + beta*B.
enum class MatrixOp { none, transpose, conjugate_transpose };

struct BlockCyclicMatrix {
  std::array<CyclicAxis, 2> axes;  ///< rows, columns
  /// The communicator rank of grid process (p, q), at p * axes[1].procs + q.
  std::vector<int> ranks;
  StorageOrder order = StorageOrder::column_major;  ///< of the local arrays
  /// This rank's leading dimension: elements between neighbouring columns
  /// (column-major) or rows (row-major) of its local array.
  index_t leading = 1;

  /// This rank's grid process, or nothing outside the grid.
  std::optional<std::array<int, 2>> coord_of(int rank) const;
  /// This rank's local extents (rows, columns); {0, 0} outside the grid.
  Index<2> local_extents(int rank) const;
  /// Throws LayoutError naming the problem: a block below 1, a negative
  /// extent, a source outside the grid, a rank map of the wrong size or with
  /// repeated ranks, or a leading dimension below this rank's local extent.
  void validate(int rank, int comm_size) const;
};

/// The matrix of a 2-D distarray layout whose local blocks are stored in
/// `order` with leading dimension `leading` on this rank.
BlockCyclicMatrix matrix_of(const Layout<2>& layout, StorageOrder order, index_t leading);

}  // namespace distarray
