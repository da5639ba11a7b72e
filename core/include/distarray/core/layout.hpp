#pragma once
// Layout<D>: where every element of a D-dimensional global array lives — a
// process grid plus one Dist1D per dimension, the distributed cousin of an
// mdspan layout mapping.  A pure value; printable and parseable:
//   Layout<2>::parse("block(64),block(64) on 2x2", {256, 256}).to_string()
//     == "block(64),block(64) on 2x2"

#include <distarray/core/checked.hpp>
#include <distarray/core/dist1d.hpp>
#include <distarray/core/grid_shape.hpp>
#include <distarray/core/layout_text.hpp>
#include <distarray/core/row_major.hpp>

#include <array>
#include <string>
#include <string_view>

namespace distarray {

template <int D>
class Layout {
  static_assert(D >= 1, "a layout has at least one dimension");

 public:
  Layout() = default;

  /// Throws LayoutError unless dists[d].procs() == grid.dims[d] for every d
  /// and the element count fits in 63 bits.
  Layout(const GridShape<D>& grid, const std::array<Dist1D, D>& dists) : grid_(grid), dists_(dists) {
    for (int d = 0; d < D; ++d)
      if (dists_[d].procs() != grid_.dims[d])
        throw LayoutError("layout '" + to_string() + "': dimension " + std::to_string(d) + " ('" +
                          dists_[d].to_string() + "') spans " + std::to_string(dists_[d].procs()) +
                          " processes but the grid has " + std::to_string(grid_.dims[d]));
    try {
      checked_element_count(shape());
    } catch (const LayoutError& e) {
      throw LayoutError("layout '" + to_string() + "': the shape has too many elements (" + e.what() + ")");
    }
  }

  /// Parses layout text (see layout_text.hpp) for an array of the given shape.
  static Layout parse(std::string_view text, const Index<D>& shape) {
    const LayoutSpec spec = parse_layout_spec(text);
    const auto prefix = [&] { return "layout '" + spec.text + "': "; };
    if (spec.dists.size() != std::size_t(D))
      throw LayoutError(prefix() + std::to_string(spec.dists.size()) + " distributions for a " +
                        std::to_string(D) + "-dimensional shape");
    if (spec.grid.size() != std::size_t(D))
      throw LayoutError(prefix() + "grid 'on " + extents_text(spec.grid) + "' has " +
                        std::to_string(spec.grid.size()) + " dimensions, the shape has " + std::to_string(D));
    std::array<int, D> dims{};
    std::array<Dist1D, D> dists;
    GridShape<D> grid;
    try {
      for (int d = 0; d < D; ++d) {
        dims[d] = spec.grid[d];
        dists[d] = spec.dists[d].make(shape[d], spec.grid[d]);
      }
      grid = GridShape<D>::make(dims, spec.first_rank);
    } catch (const LayoutError& e) {
      throw LayoutError(prefix() + e.what());
    }
    return Layout(grid, dists);  // (its errors name the layout themselves)
  }

  const GridShape<D>& grid() const { return grid_; }
  const Dist1D& dist(int d) const { return dists_[d]; }
  const std::array<Dist1D, D>& dists() const { return dists_; }

  Index<D> shape() const {
    Index<D> s{};
    for (int d = 0; d < D; ++d) s[d] = dists_[d].extent();
    return s;
  }
  index_t global_size() const { return element_count(shape()); }

  /// Local extents of the process at grid coordinate c.
  Index<D> local_extents(const Coord<D>& c) const {
    Index<D> e{};
    for (int d = 0; d < D; ++d) e[d] = dists_[d].local_extent(c[d]);
    return e;
  }

  /// Grid coordinate of the owner of global index g.
  Coord<D> owner(const Index<D>& g) const {
    Coord<D> c{};
    for (int d = 0; d < D; ++d) c[d] = dists_[d].owner(g[d]);
    return c;
  }
  int owner_rank(const Index<D>& g) const { return grid_.rank_of(owner(g)); }

  Index<D> local_index(const Index<D>& g) const {
    Index<D> l{};
    for (int d = 0; d < D; ++d) l[d] = dists_[d].local_index(g[d]);
    return l;
  }
  Index<D> global_index(const Coord<D>& c, const Index<D>& l) const {
    Index<D> g{};
    for (int d = 0; d < D; ++d) g[d] = dists_[d].global_index(c[d], l[d]);
    return g;
  }

  /// Layout text that parses back to this layout (given the same shape).
  std::string to_string() const {
    std::string s;
    for (int d = 0; d < D; ++d) s += (d ? "," : "") + dists_[d].to_string();
    return s + " on " + grid_.to_string();
  }

  friend bool operator==(const Layout&, const Layout&) = default;

 private:
  GridShape<D> grid_{};
  std::array<Dist1D, D> dists_{};
};

}  // namespace distarray
