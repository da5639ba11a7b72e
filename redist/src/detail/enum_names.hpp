#pragma once
// Text names of enumerations, both ways.

#include <distarray/core/error.hpp>

#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace distarray::detail {

template <class E, std::size_t N>
using NameTable = std::array<std::pair<E, std::string_view>, N>;

template <class E, std::size_t N>
std::string_view name_of(const NameTable<E, N>& names, E value) {
  for (const auto& [v, n] : names)
    if (v == value) return n;
  return "?";
}

/// The value named `text`; UsageError listing the known names otherwise.
template <class E, std::size_t N>
E value_of(const NameTable<E, N>& names, std::string_view text, const char* what) {
  std::string known;
  for (const auto& [v, n] : names) {
    if (n == text) return v;
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw UsageError("unknown " + std::string(what) + " '" + std::string(text) + "' (" + known + ")");
}

}  // namespace distarray::detail
