#pragma once
// Integer helpers for index arithmetic with possibly negative numerators.

#include <distarray/core/types.hpp>

#include <numeric>
#include <optional>

namespace distarray::detail {

/// floor(a / b) for b > 0.
constexpr index_t floor_div(index_t a, index_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
/// ceil(a / b) for b > 0.
constexpr index_t ceil_div(index_t a, index_t b) { return -floor_div(-a, b); }
/// a mod b in [0, b) for b > 0.
constexpr index_t pos_mod(index_t a, index_t b) { return a - floor_div(a, b) * b; }

/// lcm(a, b), or nothing when it exceeds `limit` (so it never overflows).
inline std::optional<index_t> lcm_up_to(index_t a, index_t b, index_t limit) {
  const index_t q = a / std::gcd(a, b);
  if (q > limit / b) return std::nullopt;
  const index_t l = q * b;
  return l <= limit ? std::optional<index_t>(l) : std::nullopt;
}

}  // namespace distarray::detail
