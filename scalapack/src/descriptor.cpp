#include <distarray/scalapack/descriptor.hpp>

#include <algorithm>

namespace distarray::scalapack {

namespace {

constexpr const char* names[DLEN_] = {"DTYPE_", "CTXT_", "M_", "N_", "MB_", "NB_", "RSRC_", "CSRC_", "LLD_"};

[[noreturn]] void refuse(const std::string& why) { throw LayoutError("ScaLAPACK descriptor: " + why); }

void check(const int* desc, int nprow, int npcol) {
  if (const auto e = bad_entry(desc, nprow, npcol)) refuse(entry_text(desc, *e));
}

}  // namespace

const char* entry_name(int entry) { return entry >= 0 && entry < DLEN_ ? names[entry] : "?"; }

std::string entry_text(const int* desc, int entry) {
  return "entry " + std::to_string(entry + 1) + " (" + entry_name(entry) + ") is " +
         std::to_string(desc[entry]);
}

std::optional<DescriptorEntry> bad_entry(const int* desc, int nprow, int npcol) {
  const std::pair<DescriptorEntry, bool> rules[] = {
      {DTYPE_, desc[DTYPE_] == 1},
      {M_, desc[M_] >= 0},
      {N_, desc[N_] >= 0},
      {MB_, desc[MB_] >= 1},
      {NB_, desc[NB_] >= 1},
      {RSRC_, desc[RSRC_] >= 0 && desc[RSRC_] < nprow},
      {CSRC_, desc[CSRC_] >= 0 && desc[CSRC_] < npcol},
  };
  for (const auto& [entry, ok] : rules)
    if (!ok) return entry;
  return std::nullopt;
}

BlockCyclicMatrix descriptor_matrix(const int* desc, int nprow, int npcol, std::vector<int> ranks, int lld) {
  check(desc, nprow, npcol);
  BlockCyclicMatrix m;
  m.axes = {CyclicAxis(desc[M_], desc[MB_], nprow, desc[RSRC_]),
            CyclicAxis(desc[N_], desc[NB_], npcol, desc[CSRC_])};
  m.ranks = std::move(ranks);
  m.order = StorageOrder::column_major;
  m.leading = lld;
  return m;
}

Layout<2> scalapack_layout(const int* desc, int nprow, int npcol, int first_rank) {
  check(desc, nprow, npcol);
  if (desc[RSRC_] != 0 || desc[CSRC_] != 0)
    refuse("a Layout deals blocks from process 0, and RSRC_, CSRC_ are " + std::to_string(desc[RSRC_]) +
           ", " + std::to_string(desc[CSRC_]) +
           "; move such a matrix as a BlockCyclicMatrix (descriptor_matrix) with MatrixTransform");
  return Layout<2>(
      GridShape<2>::make({npcol, nprow}, first_rank),
      {Dist1D::cyclic_b(desc[N_], npcol, desc[NB_]), Dist1D::cyclic_b(desc[M_], nprow, desc[MB_])});
}

void check_scalapack_lld(const int* desc, const Layout<2>& layout, const std::optional<Coord<2>>& coord) {
  if (!coord) return;
  const index_t rows = layout.local_extents(*coord)[1];
  if (!lld_fits(desc[LLD_], rows))
    refuse(entry_text(desc, LLD_) + ", below the " + std::to_string(rows) + " local rows");
  if (desc[LLD_] != std::max<index_t>(rows, 1))
    refuse(entry_text(desc, LLD_) + ", above the " + std::to_string(rows) +
           " local rows; a DistArray wraps unpadded local arrays only (descriptor_matrix takes padded ones)");
}

}  // namespace distarray::scalapack
