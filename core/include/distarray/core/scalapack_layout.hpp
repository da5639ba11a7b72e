#pragma once
// ScaLAPACK interoperability.  A ScaLAPACK M x N matrix with array
// descriptor DESC, block-cyclic MB x NB on a BLACS grid of NPROW x NPCOL
// processes in column-major ("Col") order, is stored column-major in each
// local array.  Byte for byte, that is the row-major N x M transpose in
// distarray, distributed cyclic(NB), cyclic(MB) on an NPCOL x NPROW grid.
// scalapack_layout() returns that layout, and DistArray::wrap() places a
// DistArray over the local array without copying, so a plan between two such
// layouts moves a ScaLAPACK matrix between descriptors like pdgemr2d.

#include <distarray/core/layout.hpp>

#include <algorithm>
#include <optional>
#include <string>

namespace distarray {

/// Descriptor entries, as in the ScaLAPACK users' guide (DTYPE_ = 1 arrays).
enum ScalapackDescEntry {
  desc_dtype = 0,
  desc_ctxt,
  desc_m,
  desc_n,
  desc_mb,
  desc_nb,
  desc_rsrc,
  desc_csrc,
  desc_lld
};

/// The distarray layout of the transposed matrix of descriptor `desc` on a
/// BLACS grid nprow x npcol in column-major order whose process (0,0) is rank
/// `first_rank` of the communicator.  LayoutError for a descriptor that is not
/// a dense block-cyclic one or whose first process row or column is not 0.
inline Layout<2> scalapack_layout(const int desc[9], int nprow, int npcol, int first_rank = 0) {
  const auto fail = [](const std::string& what) { throw LayoutError("ScaLAPACK descriptor: " + what); };
  if (desc[desc_dtype] != 1) fail("DTYPE_ is " + std::to_string(desc[desc_dtype]) + ", not 1 (dense)");
  if (desc[desc_rsrc] != 0 || desc[desc_csrc] != 0)
    fail("RSRC_/CSRC_ other than 0 are not supported (got " + std::to_string(desc[desc_rsrc]) + ", " +
         std::to_string(desc[desc_csrc]) + ")");
  if (desc[desc_mb] < 1 || desc[desc_nb] < 1 || desc[desc_m] < 0 || desc[desc_n] < 0)
    fail("M_, N_, MB_ or NB_ out of range");
  return Layout<2>(GridShape<2>::make({npcol, nprow}, first_rank),
                   {Dist1D::cyclic_b(desc[desc_n], npcol, desc[desc_nb]),
                    Dist1D::cyclic_b(desc[desc_m], nprow, desc[desc_mb])});
}

/// Throws LayoutError unless the local leading dimension LLD_ equals the local
/// row count (which is what wrapping without copying needs); `coord` is this
/// rank's coordinate in the layout (none outside the grid).
inline void check_scalapack_lld(const int desc[9], const Layout<2>& layout,
                                const std::optional<Coord<2>>& coord) {
  if (!coord) return;
  const index_t rows = layout.local_extents(*coord)[1];
  if (desc[desc_lld] != std::max<index_t>(rows, 1))
    throw LayoutError("ScaLAPACK descriptor: LLD_ " + std::to_string(desc[desc_lld]) + " differs from the " +
                      std::to_string(rows) + " local rows; only unpadded local arrays can be wrapped");
}

}  // namespace distarray
