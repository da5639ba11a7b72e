// libFuzzer target: the layout text parser.  Input: one byte choosing the
// dimension count, then "SHAPE|LAYOUT" text.  A malformed input must end in a
// LayoutError (any other exception or a sanitizer report is a crash); a
// layout that parses must print to text that parses back to itself.

#include <distarray/core/layout.hpp>
#include <distarray/core/layout_text.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

template <int D>
void check(const std::vector<distarray::index_t>& extents, std::string_view text) {
  if (extents.size() != std::size_t(D)) return;
  distarray::Index<D> shape{};
  for (int d = 0; d < D; ++d) shape[d] = extents[std::size_t(d)];
  try {
    const auto layout = distarray::Layout<D>::parse(text, shape);
    if (!(distarray::Layout<D>::parse(layout.to_string(), shape) == layout)) std::abort();
    for (const distarray::Dist1D& d : layout.dists())  // index functions on the last element
      if (d.extent() > 0 && d.local_index(d.extent() - 1) < 0) std::abort();
  } catch (const distarray::LayoutError&) {
  } catch (const distarray::ShapeMismatch&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto bar = input.find('|');
  if (bar == std::string::npos) return 0;
  std::vector<distarray::index_t> extents;
  try {
    extents = distarray::parse_shape(input.substr(0, bar));
  } catch (const distarray::LayoutError&) {
    return 0;
  }
  const std::string_view text = std::string_view(input).substr(bar + 1);
  switch (data[0] % 3) {
    case 0:
      check<1>(extents, text);
      break;
    case 1:
      check<2>(extents, text);
      break;
    default:
      check<3>(extents, text);
      break;
  }
  return 0;
}
