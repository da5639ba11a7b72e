#include <distarray/core/dist1d.hpp>
#include <distarray/core/error.hpp>

#include <limits>

namespace distarray {

namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw LayoutError(what);
}

/// ceil(n / p) for n >= 0, p >= 1, without the overflow of (n + p - 1) / p.
index_t ceil_div(index_t n, int p) { return n / p + (n % p != 0); }

}  // namespace

Dist1D::Dist1D(DistKind kind, index_t n, int p, index_t b, index_t param)
    : kind_(kind), n_(n), p_(p), b_(b), param_(param) {
  const std::string name = to_string();
  require(n >= 0, "'" + name + "': extent " + std::to_string(n) + " is negative");
  require(p >= 1, "'" + name + "': process count " + std::to_string(p) + " must be >= 1");
  require(b >= 1, "'" + name + "': block size must be >= 1, got " + std::to_string(b));
  // A block larger than the whole extent maps exactly like a block of N (or 1
  // when N = 0); capping it keeps P*b from overflowing.
  b_ = std::min(b, std::max<index_t>(n, 1));
  require(b_ <= std::numeric_limits<index_t>::max() / p, "'" + name + "': " + std::to_string(p) +
                                                             " processes x block " + std::to_string(b_) +
                                                             " overflows 64-bit indices");
}

Dist1D Dist1D::block(index_t n, int procs) {
  const index_t b = procs >= 1 && n > 0 ? ceil_div(n, procs) : 1;
  return Dist1D(DistKind::block, n, procs, b, 0);
}

Dist1D Dist1D::block_m(index_t n, int procs, index_t m) {
  Dist1D d(DistKind::block_m, n, procs, m, m);
  // m*P >= N, written without overflowing.
  require(m >= ceil_div(n, procs), "'" + d.to_string() + "' over " + std::to_string(procs) +
                                       " processes covers " + "fewer than the " + std::to_string(n) +
                                       " elements (block(m) needs m*P >= N)");
  return d;
}

Dist1D Dist1D::cyclic(index_t n, int procs) { return Dist1D(DistKind::cyclic, n, procs, 1, 0); }

Dist1D Dist1D::cyclic_b(index_t n, int procs, index_t b) {
  return Dist1D(DistKind::cyclic_b, n, procs, b, b);
}

Dist1D Dist1D::collapsed(index_t n) { return Dist1D(DistKind::collapsed, n, 1, std::max<index_t>(n, 1), 0); }

TensorBasis Dist1D::basis() const {
  const index_t cycle = cycle_length();
  return TensorBasis{n_ / cycle, p_, b_, n_ % cycle};
}

std::string Dist1D::to_string() const {
  switch (kind_) {
    case DistKind::block:
      return "block";
    case DistKind::block_m:
      return "block(" + std::to_string(param_) + ")";
    case DistKind::cyclic:
      return "cyclic";
    case DistKind::cyclic_b:
      return "cyclic(" + std::to_string(param_) + ")";
    case DistKind::collapsed:
      return "*";
  }
  return "?";
}

std::string TensorBasis::to_string() const {
  std::string s = "e_" + std::to_string(cycles) + " (x) e_" + std::to_string(procs) + "[proc] (x) e_" +
                  std::to_string(block);
  if (tail != 0) s += " + " + std::to_string(tail) + " tail";
  return s;
}

}  // namespace distarray
