// Hsu and Chung, "Efficient methods for kr->r and r->kr array redistribution":
// closed forms on M processes when one block size is k times the other.
//
// With LCC = kr local elements (one coarse block, or k fine blocks) the
// owner pattern repeats (Lemma 1), so one window is enumerated:
//  - coarse local blocks (kr->r send, r->kr receive): the k sub-blocks of
//    size r go to processes eta, eta+1, ... mod M with eta = (i*k) mod M
//    (Eq. 1, Lemma 2).  From the receiver's side this is Eq. 7:
//    beta = ((i - (j*k mod M)) mod M) * r, every M*r elements.
//  - fine local blocks (r->kr send, kr->r receive): the local blocks whose
//    global block lies in one coarse block form a contiguous class, the
//    first one owned by floor(i/k) (Eq. 5).  Class bounds are re-derived
//    (block_split.hpp) because the printed Eqs. 2-4 disagree with the oracle
//    in many small cases, e.g. k = 2, r = 1, M = 4, where a destination's
//    sources are not consecutive ranks.

#include "detail/block_split.hpp"
#include "detail/generators.hpp"

namespace distarray::detail {

std::optional<std::string> hsu_chung_inapplicable(const Dist1D& a, const Dist1D& b) {
  if (a.procs() != b.procs())
    return "Hsu-Chung closed forms need equal process counts, got " + std::to_string(a.procs()) + " and " +
           std::to_string(b.procs());
  const index_t x = a.block_size(), y = b.block_size();
  if (x % y != 0 && y % x != 0)
    return "Hsu-Chung closed forms need one block size to be a multiple of the other, got " +
           std::to_string(x) + " and " + std::to_string(y);
  return std::nullopt;
}

void hsu_chung(const Dist1D& local, int proc, const Dist1D& remote, const Window& w, PartitionBuilder& out) {
  const index_t bl = local.block_size();
  const index_t blocks = w.period > 0 ? w.period / bl : (w.end + bl - 1) / bl;  // local blocks in the window
  if (bl >= remote.block_size()) {
    for (index_t c = 0; c < blocks; ++c) split_coarse_block(local, proc, remote, c, out);
  } else {
    split_fine_blocks(local, proc, remote, 0, blocks, out);
  }
}

}  // namespace distarray::detail
