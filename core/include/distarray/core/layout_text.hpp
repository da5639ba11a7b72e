#pragma once
// The layout text syntax (ARCHITECTURE Sec. 3), parsed before the array's extents
// are known:
//   layout := dist ("," dist)* "on" grid
//   dist   := "block" | "block(" m ")" | "cyclic" | "cyclic(" b ")" | "*"
//   grid   := n ("x" n)* ["@" first_rank]
// e.g. "cyclic(4),* on 4x1", "block(64),block(64) on 2x2", "cyclic,block on 3x1@4".
// Kinds are case-insensitive; blanks are allowed between tokens.  Errors are
// LayoutError naming the offending token.

#include <distarray/core/dist1d.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace distarray {

/// One dimension's distribution as written, before its extent is known.
struct DistSpec {
  DistKind kind = DistKind::collapsed;
  index_t parameter = 0;  ///< m of block(m), b of cyclic(b); 0 otherwise
  std::string token;      ///< the text it was parsed from

  /// The distribution of n elements over p processes; LayoutError naming the
  /// token when they do not fit (block(m) with m*p < n, '*' over p > 1).
  Dist1D make(index_t n, int p) const;
};

/// A parsed layout string of any dimension count.
struct LayoutSpec {
  std::vector<DistSpec> dists;
  std::vector<int> grid;
  int first_rank = 0;
  std::string text;
};

LayoutSpec parse_layout_spec(std::string_view text);

/// "4096x4096" -> {4096, 4096}; "18" -> {18}.  LayoutError names a bad token.
std::vector<index_t> parse_shape(std::string_view text);

}  // namespace distarray
