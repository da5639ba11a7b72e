#include <distarray/core/error.hpp>
#include <distarray/redist/peer_counts.hpp>

#include <algorithm>
#include <numeric>

namespace distarray {

namespace {

/// Elements of [0, x) that process p of `d` owns (Dist1D::local_extent with N = x).
index_t owned_below(const Dist1D& d, int p, index_t x) {
  const index_t b = d.block_size(), cycle = d.cycle_length();
  return (x / cycle) * b + std::clamp<index_t>(x % cycle - index_t(p) * b, 0, b);
}

index_t owned_in(const Dist1D& d, int p, index_t lo, index_t hi) {
  return owned_below(d, p, hi) - owned_below(d, p, lo);
}

/// Adds to counts[q] the elements of [lo, hi) that each process q of `d` owns:
/// by walking d's blocks when they are fewer than its processes, else per process.
void add_owners(const Dist1D& d, index_t lo, index_t hi, index_t weight, std::vector<index_t>& counts) {
  const index_t b = d.block_size();
  if ((hi - lo) / b + 2 <= index_t(d.procs())) {
    for (index_t g = lo; g < hi;) {
      const index_t end = std::min(hi, (g / b + 1) * b);
      counts[std::size_t(d.owner(g))] += weight * (end - g);
      g = end;
    }
  } else {
    for (int q = 0; q < d.procs(); ++q) counts[std::size_t(q)] += weight * owned_in(d, q, lo, hi);
  }
}

/// Adds the counts of global range [lo, hi), `weight` times, enumerating
/// whichever side has fewer blocks there.
void add_range(const Dist1D& local, int proc, const Dist1D& remote, index_t lo, index_t hi, index_t weight,
               std::vector<index_t>& counts) {
  if (lo >= hi) return;
  const index_t bl = local.block_size(), cl = local.cycle_length(), br = remote.block_size();
  const index_t local_blocks = (hi - lo) / cl + 1, remote_blocks = (hi - lo) / br + 1;
  if (local_blocks <= remote_blocks) {
    // This process's blocks k*cl + proc*bl, each against the remote owners.
    for (index_t start = (lo / cl) * cl + index_t(proc) * bl; start < hi; start += cl) {
      const index_t a = std::max(lo, start), z = std::min(hi, start + bl);
      if (a < z) add_owners(remote, a, z, weight, counts);
    }
  } else {
    // The remote blocks, each taking what this process owns of it.
    for (index_t start = (lo / br) * br; start < hi; start += br) {
      const index_t a = std::max(lo, start), z = std::min(hi, start + br);
      counts[std::size_t(remote.owner(a))] += weight * owned_in(local, proc, a, z);
    }
  }
}

}  // namespace

std::vector<std::pair<int, index_t>> peer_counts(const Dist1D& local, int proc, const Dist1D& remote) {
  if (local.extent() != remote.extent())
    throw ShapeMismatch("peer counts between extents " + std::to_string(local.extent()) + " and " +
                        std::to_string(remote.extent()));
  const index_t n = local.extent();
  if (n == 0) return {};
  std::vector<index_t> counts(std::size_t(remote.procs()), 0);
  // Both distributions repeat every lcm of their cycle lengths (Hsu-Chung
  // Lemma 1): count one period, multiply, then the tail.  An lcm beyond the
  // extent (or index_t) means no repetition.
  const index_t a = local.cycle_length(), b = remote.cycle_length();
  index_t period = n;
  if (index_t l = 0; !__builtin_mul_overflow(a / std::gcd(a, b), b, &l) && l < n) period = l;
  const index_t repeats = n / period;
  add_range(local, proc, remote, 0, period, repeats, counts);
  add_range(local, proc, remote, repeats * period, n, 1, counts);
  std::vector<std::pair<int, index_t>> out;
  for (int q = 0; q < remote.procs(); ++q)
    if (counts[std::size_t(q)] > 0) out.emplace_back(q, counts[std::size_t(q)]);
  return out;
}

}  // namespace distarray
