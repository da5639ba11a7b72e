#include <distarray/redist/detail/copy_table.hpp>

namespace distarray::detail {

std::vector<Segment> expanded_segments(const PeerRuns& r, index_t unit) {
  std::vector<Segment> v;
  r.for_each_segment([&](index_t start, index_t length) {
    if (!v.empty() && v.back().start + v.back().length == start * unit)
      v.back().length += length * unit;
    else
      v.push_back({start * unit, length * unit});
  });
  return v;
}

std::vector<index_t> expanded_indices(const PeerRuns& r) {
  std::vector<index_t> v;
  v.reserve(std::size_t(r.size()));
  r.for_each_segment([&](index_t start, index_t length) {
    for (index_t i = 0; i < length; ++i) v.push_back(start + i);
  });
  return v;
}

bool evenly_spaced_singles(const std::vector<Segment>& segments) {
  if (segments.size() < 2) return false;
  const index_t spacing = segments[1].start - segments[0].start;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (segments[i].length != 1 || (i > 0 && segments[i].start - segments[i - 1].start != spacing))
      return false;
  return true;
}

}  // namespace distarray::detail
