#pragma once
// GridShape<D>: a D-dimensional Cartesian arrangement of a contiguous range of
// ranks, first_rank .. first_rank + size() - 1, numbered row-major (the last
// grid dimension varies fastest, as in MPI_Cart_create).  "on 3x1@4" is
// dims {3,1} starting at rank 4.  A pure value: no communicator needed, so
// schedules can be studied for grids far larger than the machine.

#include <distarray/core/error.hpp>
#include <distarray/core/types.hpp>

#include <array>
#include <optional>
#include <string>

namespace distarray {

template <int D>
using Coord = std::array<int, D>;

template <int D>
struct GridShape {
  std::array<int, D> dims{};
  int first_rank = 0;

  /// A grid of the given extents starting at rank `first`; throws LayoutError
  /// for an extent < 1, a negative first rank or a rank count above INT_MAX.
  static GridShape make(const std::array<int, D>& dims, int first = 0) {
    long long size = 1;
    for (int d = 0; d < D; ++d) {
      if (dims[d] < 1)
        throw LayoutError("grid '" + GridShape{dims, first}.to_string() + "': extent " +
                          std::to_string(dims[d]) + " must be >= 1");
      size *= dims[d];
      if (size > 0x7fffffffLL)
        throw LayoutError("grid '" + GridShape{dims, first}.to_string() + "' has too many ranks");
    }
    if (first < 0 || size + first > 0x7fffffffLL)
      throw LayoutError("grid '" + GridShape{dims, first}.to_string() + "': bad first rank");
    return GridShape{dims, first};
  }

  int size() const {
    int s = 1;
    for (int d : dims) s *= d;
    return s;
  }
  /// One past the last rank of the grid.
  int end_rank() const { return first_rank + size(); }

  int rank_of(const Coord<D>& c) const {
    int r = 0;
    for (int d = 0; d < D; ++d) r = r * dims[d] + c[d];
    return first_rank + r;
  }

  /// The coordinate of `rank`, or nothing when the rank is outside the grid.
  std::optional<Coord<D>> coord_of(int rank) const {
    if (rank < first_rank || rank >= end_rank()) return std::nullopt;
    Coord<D> c{};
    int r = rank - first_rank;
    for (int d = D - 1; d >= 0; --d) {
      c[d] = r % dims[d];
      r /= dims[d];
    }
    return c;
  }

  /// The line along dimension d through `c` (the coordinates that differ
  /// from c only in d), numbered row-major over the other dimensions: the
  /// colour that splits a grid's communicator into its lines along d.
  int line_of(const Coord<D>& c, int d) const {
    int line = 0;
    for (int e = 0; e < D; ++e)
      if (e != d) line = line * dims[e] + c[e];
    return line;
  }

  /// "2x3", or "3x1@4" when the grid does not start at rank 0.
  std::string to_string() const {
    std::string s = extents_text(dims);
    if (first_rank != 0) s += "@" + std::to_string(first_rank);
    return s;
  }

  friend bool operator==(const GridShape&, const GridShape&) = default;
};

}  // namespace distarray
