#include "ownership_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace distarray::cli {

namespace {

/// Text and pictures are cut at this many elements per dimension.
constexpr index_t max_shown = 48;

/// Right-aligned columns of equal width.
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows)
    for (std::size_t c = 1; c < row.size(); ++c) width = std::max(width, row[c].size());
  std::size_t label = 0;
  for (const auto& row : rows) label = std::max(label, row[0].size());
  std::ostringstream out;
  for (const auto& row : rows) {
    out << row[0] << std::string(label - row[0].size(), ' ') << " |";
    for (std::size_t c = 1; c < row.size(); ++c) out << std::string(width + 1 - row[c].size(), ' ') << row[c];
    out << '\n';
  }
  return out.str();
}

std::string cut_note(index_t n) {
  return n > max_shown ? "(first " + std::to_string(max_shown) + " of " + std::to_string(n) + " shown)\n"
                       : "";
}

/// The owner rank and local-index label of every shown element, row-major.
struct Cells {
  index_t rows = 0, cols = 0;
  std::vector<int> owner;
  std::vector<std::string> label;
  int first_rank = 0, ranks = 1;
};

Cells cells_of(const Layout<2>& layout) {
  Cells c;
  c.rows = std::min(layout.shape()[0], max_shown);
  c.cols = std::min(layout.shape()[1], max_shown);
  c.first_rank = layout.grid().first_rank;
  c.ranks = layout.grid().size();
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t j = 0; j < c.cols; ++j) {
      c.owner.push_back(layout.owner_rank({i, j}));
      const Index<2> l = layout.local_index({i, j});
      c.label.push_back(std::to_string(l[0]) + "," + std::to_string(l[1]));
    }
  return c;
}

Cells cells_of(const Layout<1>& layout) {
  Cells c;
  c.rows = 1;
  c.cols = std::min(layout.shape()[0], max_shown);
  c.first_rank = layout.grid().first_rank;
  c.ranks = layout.grid().size();
  for (index_t j = 0; j < c.cols; ++j) {
    c.owner.push_back(layout.owner_rank({j}));
    c.label.push_back(std::to_string(layout.local_index({j})[0]));
  }
  return c;
}

/// A colour per rank: a fixed qualitative palette, then evenly spaced hues.
std::string colour(int k) {
  static const char* palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2",
                                  "#edc948", "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295"};
  if (k < 12) return palette[k];
  char buf[32];
  std::snprintf(buf, sizeof buf, "hsl(%d,55%%,60%%)", int(std::fmod(k * 137.508, 360.0)));
  return buf;
}

std::string svg_of(const Cells& c, const std::string& title) {
  const int cell = int(std::clamp<index_t>(960 / std::max<index_t>(c.cols, 1), 8, 40));
  const int top = 30, left = 10;
  const int legend_cols = std::min(c.ranks, 8);
  const int legend_rows = (c.ranks + legend_cols - 1) / legend_cols;
  const int width = std::max<int>(left * 2 + int(c.cols) * cell, 90 * legend_cols + 2 * left);
  const int height = top + int(c.rows) * cell + 20 + 22 * legend_rows;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"sans-serif\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << left << "\" y=\"20\" font-size=\"14\">" << title << "</text>\n";
  const int font = std::max(6, cell / 3);
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t j = 0; j < c.cols; ++j) {
      const std::size_t k = std::size_t(i * c.cols + j);
      const int x = left + int(j) * cell, y = top + int(i) * cell;
      s << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell << "\" height=\"" << cell
        << "\" fill=\"" << colour(c.owner[k] - c.first_rank) << "\" stroke=\"white\"/>";
      if (cell >= 20)
        s << "<text x=\"" << x + cell / 2 << "\" y=\"" << y + cell / 2 + font / 3 << "\" font-size=\"" << font
          << "\" text-anchor=\"middle\" fill=\"white\">" << c.label[k] << "</text>";
      s << '\n';
    }
  const int ly = top + int(c.rows) * cell + 12;
  for (int r = 0; r < c.ranks; ++r) {
    const int x = left + 90 * (r % legend_cols), y = ly + 22 * (r / legend_cols);
    s << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"16\" height=\"16\" fill=\"" << colour(r) << "\"/>"
      << "<text x=\"" << x + 22 << "\" y=\"" << y + 13 << "\" font-size=\"12\">rank " << c.first_rank + r
      << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

std::string header(const std::string& layout, const std::string& shape, const std::string& bases) {
  return "layout " + layout + "   shape " + shape + "\ntensor basis " + bases + "\n\n";
}

}  // namespace

std::string ownership_text(const Layout<1>& layout, int index_base) {
  const Dist1D& d = layout.dist(0);
  const index_t shown = std::min(d.extent(), max_shown);
  std::vector<std::vector<std::string>> map = {{"global index"}, {"owner"}, {"local index"}};
  for (index_t g = 0; g < shown; ++g) {
    map[0].push_back(std::to_string(g + index_base));
    map[1].push_back("P" + std::to_string(layout.owner_rank({g})));
    map[2].push_back(std::to_string(d.local_index(g)));
  }
  // Figure 2(a): each rank's local array, holding the global index at each local index.
  index_t widest = 0;
  for (int p = 0; p < d.procs(); ++p) widest = std::max(widest, d.local_extent(p));
  std::vector<std::vector<std::string>> local = {{"local index"}};
  for (index_t l = 0; l < std::min(widest, max_shown); ++l) local[0].push_back(std::to_string(l));
  for (int p = 0; p < d.procs(); ++p) {
    std::vector<std::string> row = {"P" + std::to_string(layout.grid().rank_of({p}))};
    for (index_t l = 0; l < std::min(d.local_extent(p), max_shown); ++l)
      row.push_back(std::to_string(d.global_index(p, l) + index_base));
    local.push_back(row);
  }
  return header(layout.to_string(), std::to_string(d.extent()), d.basis().to_string()) + "ownership map\n" +
         table(map) + cut_note(d.extent()) + "\nlocal arrays (global index at each local index)\n" +
         table(local) + cut_note(widest);
}

std::string ownership_text(const Layout<2>& layout, int index_base) {
  const Index<2> shape = layout.shape();
  const Cells c = cells_of(layout);
  std::vector<std::vector<std::string>> owners = {{"row \\ column"}}, locals = {{"row \\ column"}};
  for (index_t j = 0; j < c.cols; ++j) {
    owners[0].push_back(std::to_string(j + index_base));
    locals[0].push_back(std::to_string(j + index_base));
  }
  for (index_t i = 0; i < c.rows; ++i) {
    owners.push_back({std::to_string(i + index_base)});
    locals.push_back({std::to_string(i + index_base)});
    for (index_t j = 0; j < c.cols; ++j) {
      owners.back().push_back("P" + std::to_string(c.owner[std::size_t(i * c.cols + j)]));
      locals.back().push_back(c.label[std::size_t(i * c.cols + j)]);
    }
  }
  std::vector<std::vector<std::string>> ranks = {{"rank", "coordinate", "local extents"}};
  for (int r = layout.grid().first_rank; r < layout.grid().end_rank(); ++r) {
    const Coord<2> co = *layout.grid().coord_of(r);
    const Index<2> e = layout.local_extents(co);
    ranks.push_back({"P" + std::to_string(r), "(" + std::to_string(co[0]) + "," + std::to_string(co[1]) + ")",
                     extents_text(e)});
  }
  const std::string cut = cut_note(std::max(shape[0], shape[1]));
  return header(layout.to_string(), extents_text(shape),
                layout.dist(0).basis().to_string() + "  (x)  " + layout.dist(1).basis().to_string()) +
         "owner of each element\n" + table(owners) + cut + "\nlocal index (row,column) on the owner\n" +
         table(locals) + cut + "\n" + table(ranks);
}

std::string ownership_svg(const Layout<1>& layout) {
  return svg_of(cells_of(layout),
                layout.to_string() + " (" + std::to_string(layout.shape()[0]) + " elements)");
}

std::string ownership_svg(const Layout<2>& layout) {
  return svg_of(cells_of(layout), layout.to_string() + " (" + extents_text(layout.shape()) + ")");
}

}  // namespace distarray::cli
