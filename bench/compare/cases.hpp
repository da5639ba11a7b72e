#pragma once
// The cases of the comparison at a given number of ranks: the FFT/ADI
// transpose into row-major and into column-major local blocks, and the
// dense-matrix moves of 64 x 64 blocks (ScaLAPACK's pdgemr2d job): a grid
// change, a block-size change on two grids, and a move onto more ranks.  A
// case that needs more ranks than the run has is left out.

#include <string>
#include <vector>

namespace compare {

enum class CaseKind {
  transpose_row_major,     // (block,*) -> (*,block), both row-major
  transpose_column_major,  // the same into column-major blocks (FFTW-MPI's transposed output)
  block_cyclic             // column-major blocks on both sides (ScaLAPACK's local arrays)
};

struct Case {
  std::string name, from, to;
  CaseKind kind;
};

inline std::vector<Case> cases_for(int ranks) {
  const std::string p = std::to_string(ranks);
  const std::string b64 = "cyclic(64),cyclic(64) on ", b16 = "cyclic(16),cyclic(16) on ";
  std::vector<Case> all{
      {"transpose", "block,* on " + p + "x1", "*,block on 1x" + p, CaseKind::transpose_row_major},
      {"transpose, column-major", "block,* on " + p + "x1", "*,block on 1x" + p,
       CaseKind::transpose_column_major}};
  if (ranks >= 4) {
    all.push_back({"b64 2x2->1x4", b64 + "2x2", b64 + "1x4", CaseKind::block_cyclic});
    all.push_back({"b64->b16 on 2x2", b64 + "2x2", b16 + "2x2", CaseKind::block_cyclic});
  }
  if (ranks >= 2) {
    all.push_back({"b64->b16 on 1x2", b64 + "1x2", b16 + "1x2", CaseKind::block_cyclic});
    all.push_back({"b64 1x2->2x1", b64 + "1x2", b64 + "2x1", CaseKind::block_cyclic});
  }
  if (ranks >= 3) all.push_back({"b64 2 ranks->3", b64 + "1x2", b64 + "1x3", CaseKind::block_cyclic});
  return all;
}

}  // namespace compare
