// distarray show: the ownership map of a 1-D or 2-D layout, as text and SVG.

#include "commands.hpp"
#include "ownership_map.hpp"

#include <distarray/core.hpp>
#include <distarray/support/options.hpp>

#include <fstream>
#include <iostream>

namespace distarray::cli {

namespace {

// The built-in 2-D default: ragged in both dimensions, so that block sizes,
// cycles, a short last block and unequal local extents all show.
constexpr const char* default_shape = "14x10";
constexpr const char* default_layout = "cyclic(2),block(4) on 3x3";

template <int D>
void show(const Index<D>& shape, const std::string& text, const support::Options& args, int rank) {
  const Layout<D> layout = Layout<D>::parse(text, shape);
  const long long base = args.integer("index-base", 0, 0, 1);
  if (rank != 0) return;
  std::cout << ownership_text(layout, int(base));
  if (args.has("svg")) {
    const std::string path = args.text("svg", "");
    std::ofstream out(path);
    out << ownership_svg(layout);
    if (!out.flush()) throw Error("cannot write SVG file '" + path + "'");
    std::cout << "\nwrote " << path << '\n';
  }
}

}  // namespace

int run_show(int argc, char** argv, MPI_Comm comm) {
  const support::Options args(argc - 1, argv + 1, {"shape", "layout", "svg", "index-base"}, {});
  const std::vector<index_t> shape = parse_shape(args.text("shape", default_shape));
  const std::string layout = args.text("layout", args.has("shape") ? "" : default_layout);
  if (layout.empty()) throw UsageError("show needs --layout with --shape");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (shape.size() == 1) {
    show<1>({shape[0]}, layout, args, rank);
  } else if (shape.size() == 2) {
    show<2>({shape[0], shape[1]}, layout, args, rank);
  } else {
    throw UsageError("show draws 1-D and 2-D arrays; --shape has " + std::to_string(shape.size()) +
                     " dimensions");
  }
  return 0;
}

}  // namespace distarray::cli
