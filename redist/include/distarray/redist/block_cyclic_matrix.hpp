#pragma once
// BlockCyclicMatrix: a 2-D matrix in ScaLAPACK's general block-cyclic form
// (ScaLAPACK Users' Guide Sec. 4.3): per axis a block size and the process
// holding the first block (RSRC_, CSRC_), any communicator rank at each grid
// process (a BLACS grid in row, column or user-map order), and a local array
// stored column- or row-major with a leading dimension that may exceed the
// local extent (LLD_ padding, never touched).  A DistArray<T, 2> is the case
// of source 0 and a row-major rank grid (matrix_of).  MatrixTransform
// (matrix_transform.hpp) moves and combines submatrices of two of them.

#include <distarray/core/dist1d.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/core/storage_order.hpp>

#include <array>
#include <optional>
#include <vector>

namespace distarray {

/// One axis: `extent` elements in blocks of `block`, dealt round-robin over
/// `procs` processes starting at process `source`.  That is Dist1D's
/// cyclic(block) with the processes counted from the source, so the index
/// math is Dist1D's: process p here is process (p - source) mod procs there.
class CyclicAxis {
 public:
  CyclicAxis() = default;
  /// LayoutError for a negative extent, a block or process count below 1,
  /// or a source outside 0 .. procs - 1.
  CyclicAxis(index_t extent, index_t block, int procs, int source = 0);

  index_t extent() const { return dist_.extent(); }
  /// The block size (at most the extent: a larger block maps the same).
  index_t block() const { return dist_.block_size(); }
  int procs() const { return dist_.procs(); }
  int source() const { return source_; }

  /// The process holding global index g.
  int owner(index_t g) const { return (dist_.owner(g) + source_) % procs(); }
  /// g's index in its owner's local array.
  index_t local_index(index_t g) const { return dist_.local_index(g); }
  /// The global index of local index l of process p (ScaLAPACK's INDXL2G).
  index_t global_index(int p, index_t l) const { return dist_.global_index(from_source(p), l); }
  /// The elements process p holds (ScaLAPACK's NUMROC).
  index_t local_extent(int p) const { return dist_.local_extent(from_source(p)); }
  friend bool operator==(const CyclicAxis&, const CyclicAxis&) = default;

 private:
  int from_source(int p) const { return (p - source_ + procs()) % procs(); }

  Dist1D dist_ = Dist1D::cyclic(0, 1);
  int source_ = 0;
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
  /// Throws LayoutError naming the problem: a rank map of the wrong size or
  /// with repeated ranks, or a leading dimension below this rank's local
  /// extent (the axes checked themselves when they were made).
  void validate(int rank, int comm_size) const;
};

/// The matrix of a 2-D distarray layout whose local blocks are stored in
/// `order` with leading dimension `leading` on this rank.
BlockCyclicMatrix matrix_of(const Layout<2>& layout, StorageOrder order, index_t leading);

}  // namespace distarray
