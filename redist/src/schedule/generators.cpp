// The block-intersection generators of Foyer et al. (ASPEN paper, Sec. 4) and
// the per-element oracle.

#include "detail/generators.hpp"
#include "detail/arith.hpp"

#include <algorithm>

namespace distarray::detail {

// The owner of every local element of the window, one at a time.  Given the
// whole local extent (whole_window) it assumes no periodicity: the oracle.
void brute_force(const Dist1D& local, int proc, const Dist1D& remote, const Window& w,
                 PartitionBuilder& out) {
  for (index_t l = 0; l < w.end; ++l) out.add(remote.owner(local.global_index(proc, l)), l, 1);
}

namespace {

/// Emits the overlap of local block [lo, hi) (local start lstart) with global [rlo, rhi) to peer q.
void overlap(int q, index_t lo, index_t hi, index_t lstart, index_t rlo, index_t rhi, PartitionBuilder& out) {
  const index_t left = std::max(lo, rlo), right = std::min(hi, rhi);
  if (left < right) out.add(q, lstart + (left - lo), right - left);
}

}  // namespace

// Alg. 2: for each remote process, each local block against each of its blocks.
// Cost: R * N_local * N_remote block comparisons per window.
void classical(const Dist1D& local, int proc, const Dist1D& remote, const Window& w, PartitionBuilder& out) {
  const index_t br = remote.block_size(), cycle = remote.cycle_length();
  for (int q = 0; q < remote.procs(); ++q)
    for_each_local_block(local, proc, w.global_end, [&](index_t c, index_t lo, index_t hi) {
      for (index_t rlo = index_t(q) * br; rlo < w.global_end; rlo += cycle)
        overlap(q, lo, hi, c * local.block_size(), rlo, rlo + br, out);
    });
}

// Alg. 3 (FALLS): the intersection of two block-cyclic sets repeats with the
// lcm period (the window), and for a local block only the remote blocks whose
// index lies between firstIndex and lastIndex can overlap.
// Cost: R * N_local * (overlapping blocks) per window.
void falls(const Dist1D& local, int proc, const Dist1D& remote, const Window& w, PartitionBuilder& out) {
  const index_t br = remote.block_size(), cycle = remote.cycle_length();
  for (int q = 0; q < remote.procs(); ++q) {
    const index_t offset = index_t(q) * br;  // start of q's first block
    for_each_local_block(local, proc, w.global_end, [&](index_t c, index_t lo, index_t hi) {
      const index_t first = std::max<index_t>(0, ceil_div(lo - offset - br + 1, cycle));
      const index_t last = floor_div(hi - 1 - offset, cycle);
      for (index_t d = first; d <= last; ++d)
        overlap(q, lo, hi, c * local.block_size(), offset + d * cycle, offset + d * cycle + br, out);
    });
  }
}

// Alg. 4 (ASPEN): the first piece of a local block goes to the owner of the
// remote block holding its start (periodic offset, Eq. 3); each following
// piece, cut at remote block boundaries, goes to the next remote process
// (adjacent shifting).  No loop over remote processes: cost N_local + pieces.
void aspen(const Dist1D& local, int proc, const Dist1D& remote, const Window& w, PartitionBuilder& out) {
  const index_t br = remote.block_size(), pr = remote.procs();
  for_each_local_block(local, proc, w.global_end, [&](index_t c, index_t lo, index_t hi) {
    index_t q = (lo / br) % pr;
    const index_t lstart = c * local.block_size() - lo;
    for (index_t g = lo; g < hi;) {
      const index_t right = std::min(hi, (g / br + 1) * br);
      out.add(int(q), lstart + g, right - g);
      g = right;
      if (++q == pr) q = 0;
    }
  });
}

}  // namespace distarray::detail
