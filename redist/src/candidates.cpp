#include <distarray/redist/candidates.hpp>

#include <algorithm>

namespace distarray {

namespace detail {

namespace {

/// Chains from 1 to k through divisors, each step a factor > 1, at most `phases` steps.
void divisor_chains(index_t k, int phases, std::vector<index_t>& prefix,
                    std::vector<std::vector<index_t>>& out) {
  const index_t at = prefix.back();
  if (at == k) {
    out.push_back(prefix);
    return;
  }
  if (phases == 0) return;
  for (index_t f = 2; at * f <= k; ++f)
    if ((k / at) % f == 0) {
      prefix.push_back(at * f);
      divisor_chains(k, phases - 1, prefix, out);
      prefix.pop_back();
    }
}

}  // namespace

std::vector<std::vector<index_t>> block_size_chains(index_t s, index_t t) {
  std::vector<std::vector<index_t>> chains;
  if (s % t == 0 || t % s == 0) {
    const index_t small = std::min(s, t), k = std::max(s, t) / small;
    if (k > 4096) return chains;  // a bounded number of candidates
    std::vector<index_t> prefix = {1};
    std::vector<std::vector<index_t>> factors;
    divisor_chains(k, 3, prefix, factors);
    for (auto& f : factors) {
      if (f.size() <= 2) continue;  // one phase: that is the direct candidate
      std::vector<index_t> sizes;
      for (index_t x : f) sizes.push_back(x * small);
      if (s > t) std::reverse(sizes.begin(), sizes.end());
      chains.push_back(sizes);
    }
    // Fewer phases first: the cheapest-candidate choice keeps the earliest of equals.
    std::stable_sort(chains.begin(), chains.end(),
                     [](const auto& a, const auto& b) { return a.size() < b.size(); });
    return chains;
  }
  const index_t g = std::gcd(s, t), l = s / g * t;
  chains.push_back({s, g, t});
  chains.push_back({s, l, t});
  return chains;
}

}  // namespace detail
}  // namespace distarray
