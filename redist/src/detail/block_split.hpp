#pragma once
// Splitting local blocks when one block size is a multiple of the other.
// Shared by Hsu-Chung's closed forms (equal process counts, one LCC window)
// and Thakur's special cases (any process counts).

#include "detail/partition.hpp"

namespace distarray::detail {

/// Local block c of `proc`, k = b_local / b_remote sub-blocks, goes to the
/// remote processes in turn: sub-block t of global block B = c*P_l + proc is
/// global sub-block B*k + t, owned by (B*k + t) mod P_r.  (Hsu-Chung Lemma 2
/// and Eq. 1; Thakur cyclic(x)->cyclic(y), x = k*y, and block(m)->cyclic.)
/// A remote process receives every P_r-th sub-block: one strided piece each.
void split_coarse_block(const Dist1D& local, int proc, const Dist1D& remote, index_t c,
                        PartitionBuilder& out);

/// Local blocks c in [c_begin, c_end), with k = b_remote / b_local: global
/// block B = c*P_l + proc lies in remote block floor(B/k), owned by that mod P_r.
/// The blocks of one remote block form a contiguous class of local blocks,
///   c in [ceil((v*k - proc)/P_l), ceil(((v+1)*k - proc)/P_l))  for v = floor(B/k),
/// emitted one class at a time.  (Hsu-Chung Lemma 5 with Eq. 5, the first
/// class's owner floor(proc/k); Thakur cyclic->block(m) and y = k*x.)
void split_fine_blocks(const Dist1D& local, int proc, const Dist1D& remote, index_t c_begin, index_t c_end,
                       PartitionBuilder& out);

}  // namespace distarray::detail
