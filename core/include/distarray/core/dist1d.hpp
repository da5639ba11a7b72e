#pragma once
// Dist1D: how one dimension of N elements is spread over the P processes of one
// grid dimension.  Every kind is a block-cyclic distribution with some block
// size b (Thakur et al., Sec. 2; Hsu-Chung Fig. 1):
//   block      b = ceil(N/P)  (HPF BLOCK; trailing ranks may own nothing)
//   block(m)   b = m, with m*P >= N
//   cyclic     b = 1
//   cyclic(b)  b           (BLOCK-CYCLIC(b))
//   *          P = 1, b = N (the whole dimension is local)
// The index functions are exact for every N >= 0, P >= 1, b >= 1 (Thakur
// Table 1; Kaushik Def. 2.3): indices are 0-based, global block k of size b
// lives on process k mod P as that process's local block floor(k/P).

#include <distarray/core/tensor_basis.hpp>
#include <distarray/core/types.hpp>

#include <algorithm>
#include <string>

namespace distarray {

enum class DistKind { block, block_m, cyclic, cyclic_b, collapsed };

class Dist1D {
 public:
  /// The empty collapsed dimension.
  Dist1D() = default;

  static Dist1D block(index_t n, int procs);
  static Dist1D block_m(index_t n, int procs, index_t m);
  static Dist1D cyclic(index_t n, int procs);
  static Dist1D cyclic_b(index_t n, int procs, index_t b);
  static Dist1D collapsed(index_t n);

  DistKind kind() const { return kind_; }
  /// N: the global extent.
  index_t extent() const { return n_; }
  /// P: the processes along this grid dimension.
  int procs() const { return p_; }
  /// b: the block size of the equivalent block-cyclic distribution.
  index_t block_size() const { return b_; }
  /// P*b: global elements per cycle of the distribution.
  index_t cycle_length() const { return b_ * p_; }
  /// m of block(m) or b of cyclic(b) as written; 0 for the other kinds.
  index_t parameter() const { return param_; }

  /// The process that owns global index g (0 <= g < N).
  constexpr int owner(index_t g) const { return int((g / b_) % p_); }

  /// The local index of global index g on its owner.
  constexpr index_t local_index(index_t g) const { return (g / (b_ * p_)) * b_ + g % b_; }

  /// The global index of local index l of process p.
  constexpr index_t global_index(int p, index_t l) const {
    return (l / b_) * (b_ * p_) + index_t(p) * b_ + l % b_;
  }

  /// Number of elements process p owns (0 for ranks past the data).
  constexpr index_t local_extent(int p) const {
    const index_t cycle = b_ * p_;
    const index_t full = n_ / cycle;
    const index_t rest = n_ - full * cycle;
    return full * b_ + std::clamp<index_t>(rest - index_t(p) * b_, 0, b_);
  }

  /// The tensor-product basis of this distribution (Kaushik Sec. 2).
  TensorBasis basis() const;

  /// True when both map every global index to the same (owner, local index).
  bool same_mapping(const Dist1D& o) const { return n_ == o.n_ && p_ == o.p_ && b_ == o.b_; }

  /// Layout-text spelling: "block", "block(64)", "cyclic", "cyclic(4)", "*".
  std::string to_string() const;

  friend bool operator==(const Dist1D&, const Dist1D&) = default;

 private:
  Dist1D(DistKind kind, index_t n, int p, index_t b, index_t param);

  DistKind kind_ = DistKind::collapsed;
  index_t n_ = 0;
  int p_ = 1;
  index_t b_ = 1;
  index_t param_ = 0;
};

}  // namespace distarray
