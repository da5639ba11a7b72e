#pragma once
// ScaLAPACK array descriptors (ScaLAPACK Users' Guide Sec. 4.3.3), in one
// place: the entries, one set of rules, and what distarray makes of a
// descriptor.  The rules: DTYPE_ 1 (dense), M_ and N_ >= 0, MB_ and NB_ >= 1,
// RSRC_ and CSRC_ any process of the grid, LLD_ at least the local rows (and 1).
//
// Two views of a descriptor's matrix:
// - descriptor_matrix: the general BlockCyclicMatrix that MatrixTransform and
//   the ScaLAPACK routines move (any source process, padded local arrays);
// - scalapack_layout: a Layout a DistArray can wrap without copying, for
//   descriptors whose matrix a Layout expresses (RSRC_ = CSRC_ = 0, LLD_ the
//   local rows).  A ScaLAPACK M x N matrix, block-cyclic MB x NB on a BLACS
//   grid of NPROW x NPCOL processes in column-major ("Col") order, is stored
//   column-major in each local array: byte for byte the row-major N x M
//   transpose, cyclic(NB), cyclic(MB) on an NPCOL x NPROW grid.

#include <distarray/core/layout.hpp>
#include <distarray/redist/block_cyclic_matrix.hpp>

#include <optional>
#include <string>
#include <vector>

namespace distarray::scalapack {

/// The descriptor's entries (DTYPE_ = 1 arrays), 0-based.
enum DescriptorEntry { DTYPE_, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_, DLEN_ };

/// "LLD_".
const char* entry_name(int entry);
/// "entry 9 (LLD_) is 3": how errors name an entry of `desc`.
std::string entry_text(const int* desc, int entry);

/// The first entry of `desc` (DTYPE_ to CSRC_) that breaks the rules on an
/// nprow x npcol grid, or nothing.  LLD_ is each process's own: lld_fits.
std::optional<DescriptorEntry> bad_entry(const int* desc, int nprow, int npcol);
/// True when a leading dimension `lld` holds `local_rows`.
inline bool lld_fits(index_t lld, index_t local_rows) { return lld >= std::max<index_t>(local_rows, 1); }

/// The matrix of `desc` (checked: LayoutError naming the entry) on an nprow
/// x npcol grid whose process (p, q) is communicator rank ranks[p * npcol + q],
/// column-major local arrays of leading dimension `lld` on this rank.
BlockCyclicMatrix descriptor_matrix(const int* desc, int nprow, int npcol, std::vector<int> ranks, int lld);

/// The distarray layout of the transposed matrix of `desc` on a BLACS grid
/// nprow x npcol in column-major order whose process (0, 0) is rank
/// `first_rank`.  LayoutError for a descriptor the rules refuse, or whose
/// first process row or column is not 0 (a Layout deals blocks from process 0).
Layout<2> scalapack_layout(const int* desc, int nprow, int npcol, int first_rank = 0);

/// LayoutError unless LLD_ equals the local rows, which wrapping without
/// copying needs; `coord`: this rank's coordinate in the layout (none
/// outside the grid, where nothing is checked).
void check_scalapack_lld(const int* desc, const Layout<2>& layout, const std::optional<Coord<2>>& coord);

}  // namespace distarray::scalapack
