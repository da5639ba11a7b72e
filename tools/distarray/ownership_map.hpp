#pragma once
// Pictures of a layout: which rank owns each element and at which local index,
// as text tables (Hsu-Chung Fig. 1 and Fig. 2(a)) and as SVG (one colour per rank).

#include <distarray/core/layout.hpp>

#include <string>

namespace distarray::cli {

/// Tables of owner and local index; global indices are printed from `index_base`.
std::string ownership_text(const Layout<1>& layout, int index_base);
std::string ownership_text(const Layout<2>& layout, int index_base);

/// An SVG drawing: one cell per element, coloured by owner rank, labelled with its local index.
std::string ownership_svg(const Layout<1>& layout);
std::string ownership_svg(const Layout<2>& layout);

}  // namespace distarray::cli
