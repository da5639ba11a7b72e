#pragma once
#include <cstdint>
#include <string>

namespace distarray {

/// Global and local element indices and extents: 64-bit everywhere, so that
/// extents above 2^31 per dimension are exact.
using index_t = std::int64_t;

/// "AxBxC": extents joined by 'x' (a shape, a process grid, a file's
/// dimensions); empty for none.
template <class Extents>
std::string extents_text(const Extents& extents) {
  std::string s;
  for (const auto& e : extents) s += (s.empty() ? "" : "x") + std::to_string(e);
  return s;
}

}  // namespace distarray
