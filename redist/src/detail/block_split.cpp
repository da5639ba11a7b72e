#include "detail/block_split.hpp"

#include "detail/arith.hpp"

#include <algorithm>

namespace distarray::detail {

void split_coarse_block(const Dist1D& local, int proc, const Dist1D& remote, index_t c,
                        PartitionBuilder& out) {
  const index_t br = remote.block_size(), pr = remote.procs();
  const index_t k = local.block_size() / br;
  const index_t first = ((c * local.procs() + proc) * k) % pr;  // owner of the first sub-block (Eq. 1)
  for (index_t t = 0; t < std::min(k, pr); ++t)
    out.add_strided(int((first + t) % pr), c * local.block_size() + t * br, br, pr * br, ceil_div(k - t, pr));
}

void split_fine_blocks(const Dist1D& local, int proc, const Dist1D& remote, index_t c_begin, index_t c_end,
                       PartitionBuilder& out) {
  const index_t bl = local.block_size(), pl = local.procs();
  const index_t k = remote.block_size() / bl;
  for (index_t c = c_begin; c < c_end;) {
    const index_t v = (c * pl + proc) / k;                                   // remote block of local block c
    const index_t next = std::min(c_end, ceil_div((v + 1) * k - proc, pl));  // first block past the class
    out.add(int(v % remote.procs()), c * bl, (next - c) * bl);
    c = next;
  }
}

}  // namespace distarray::detail
