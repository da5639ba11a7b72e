// Thakur, Choudhary and Fox, "Runtime array redistribution in HPF programs".
// Special cases (Secs. 3-5), valid here for any process counts:
//  - block(m)->cyclic and cyclic(x)->cyclic(y) with x = k*y: the destination
//    of a local block's first element, then round-robin over sub-blocks;
//  - cyclic->block(m) and y = k*x: consecutive local blocks in one remote
//    block are contiguous, so each class goes out as one run;
// and the general method (Sec. 5): scan the local elements of one lcm window
// and compute each one's owner.

#include "detail/block_split.hpp"
#include "detail/generators.hpp"

namespace distarray::detail {

bool thakur_special_case(const Dist1D& a, const Dist1D& b) {
  return a.block_size() % b.block_size() == 0 || b.block_size() % a.block_size() == 0;
}

void thakur(const Dist1D& local, int proc, const Dist1D& remote, const Window& w, PartitionBuilder& out) {
  const index_t bl = local.block_size(), br = remote.block_size();
  if (bl % br == 0) {
    for_each_local_block(local, proc, w.global_end, [&](index_t c, index_t, index_t) {
      split_coarse_block(local, proc, remote, c, out);
    });
  } else if (br % bl == 0) {
    split_fine_blocks(local, proc, remote, 0, (w.end + bl - 1) / bl, out);
  } else {
    brute_force(local, proc, remote, w, out);  // per element, but over one window only
  }
}

}  // namespace distarray::detail
