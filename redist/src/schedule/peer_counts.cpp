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

/// The runs of `proc`'s elements of global range [lo, hi) (local_runs), and
/// the remote owners of the first and last of them (-1: it owns none there).
struct RangeRuns {
  index_t runs = 0;
  int first = -1, last = -1;

  /// Appends a stretch of local elements held by `owner`: a new run unless the last one has that owner.
  void add(int owner) {
    if (first < 0) first = owner;
    if (owner != last) ++runs;
    last = owner;
  }
};

/// Local indices rise with global ones, so the elements of `proc` within one
/// remote block are one stretch of local indices, and so is a local block's
/// share of one remote block; consecutive remote blocks have different
/// owners unless there is one remote process.
RangeRuns range_runs(const Dist1D& local, int proc, const Dist1D& remote, index_t lo, index_t hi) {
  RangeRuns r;
  if (lo >= hi) return r;
  const index_t bl = local.block_size(), cl = local.cycle_length(), br = remote.block_size();
  if ((hi - lo) / cl <= (hi - lo) / br) {
    // This process's blocks: each crosses remote blocks, one stretch per remote block.
    for (index_t start = (lo / cl) * cl + index_t(proc) * bl; start < hi; start += cl) {
      const index_t a = std::max(lo, start), z = std::min(hi, start + bl);
      if (a >= z) continue;
      r.add(remote.owner(a));
      const index_t crossed = (z - 1) / br - a / br;  // remote block boundaries inside [a, z)
      if (crossed > 0 && remote.procs() > 1) {
        r.runs += crossed;
        r.last = remote.owner(z - 1);
      }
    }
  } else {
    for (index_t start = (lo / br) * br; start < hi; start += br) {
      const index_t a = std::max(lo, start), z = std::min(hi, start + br);
      if (owned_in(local, proc, a, z) > 0) r.add(remote.owner(a));
    }
  }
  return r;
}

/// The period over which both distributions repeat: the lcm of the cycle
/// lengths (Hsu-Chung Lemma 1), or the extent where the lcm is beyond it (or index_t).
index_t common_period(const Dist1D& a, const Dist1D& b) {
  const index_t x = a.cycle_length(), y = b.cycle_length();
  index_t l = 0;
  return !__builtin_mul_overflow(x / std::gcd(x, y), y, &l) && l < a.extent() ? l : a.extent();
}

void check_extents(const Dist1D& local, const Dist1D& remote, const char* what) {
  if (local.extent() != remote.extent())
    throw ShapeMismatch(std::string(what) + " between extents " + std::to_string(local.extent()) + " and " +
                        std::to_string(remote.extent()));
}

}  // namespace

std::vector<std::pair<int, index_t>> peer_counts(const Dist1D& local, int proc, const Dist1D& remote) {
  check_extents(local, remote, "peer counts");
  const index_t n = local.extent();
  if (n == 0) return {};
  std::vector<index_t> counts(std::size_t(remote.procs()), 0);
  // Count one common period, multiply, then the tail.
  const index_t period = common_period(local, remote), repeats = n / period;
  add_range(local, proc, remote, 0, period, repeats, counts);
  add_range(local, proc, remote, repeats * period, n, 1, counts);
  std::vector<std::pair<int, index_t>> out;
  for (int q = 0; q < remote.procs(); ++q)
    if (counts[std::size_t(q)] > 0) out.emplace_back(q, counts[std::size_t(q)]);
  return out;
}

index_t local_runs(const Dist1D& local, int proc, const Dist1D& remote) {
  check_extents(local, remote, "local runs");
  const index_t n = local.extent();
  if (n == 0) return 0;
  // The owner of g + period is the owner of g on both sides: every period
  // has the same runs, and a period's last run joins the next one's first
  // when their remote owners are the same; the tail is a period's beginning.
  const index_t period = common_period(local, remote), repeats = n / period;
  const RangeRuns one = range_runs(local, proc, remote, 0, period);
  const RangeRuns tail = range_runs(local, proc, remote, repeats * period, n);
  const index_t seams = one.runs > 0 && one.last == one.first ? repeats - 1 + (tail.runs > 0) : 0;
  return repeats * one.runs + tail.runs - seams;
}

}  // namespace distarray
