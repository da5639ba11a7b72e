#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/core/detail/view_of.hpp is internal: include <distarray/core.hpp>"
#endif
#include <distarray/core/types.hpp>

#include <Kokkos_Core.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <utility>

namespace distarray::detail {

/// T*...* with D stars: the Kokkos data type of a rank-D View.
template <class T, int D>
struct ArrayOf {
  using type = typename ArrayOf<T, D - 1>::type*;
};
template <class T>
struct ArrayOf<T, 0> {
  using type = T;
};

/// A zero-initialized row-major View with the given extents.
template <class View, std::size_t D>
View make_view(const std::string& label, const std::array<index_t, D>& extents) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return View(label, static_cast<std::size_t>(extents[I])...);
  }
  (std::make_index_sequence<D>{});
}

}  // namespace distarray::detail
