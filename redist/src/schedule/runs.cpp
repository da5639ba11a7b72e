#include <distarray/redist/runs.hpp>

namespace distarray {

index_t RunPattern::size() const {
  index_t n = 0;
  for (const Segment& s : segments) n += s.length;
  return n * repeat;
}

index_t PeerRuns::size() const {
  index_t n = 0;
  for (const RunPattern& p : patterns) n += p.size();
  return n;
}

index_t PeerRuns::segment_count() const {
  index_t n = 0;
  for (const RunPattern& p : patterns) n += p.repeat * index_t(p.segments.size());
  return n;
}

std::optional<index_t> PeerRuns::offset_of(index_t l) const {
  index_t before = 0;  // elements in earlier patterns
  for (const RunPattern& p : patterns) {
    if (p.segments.empty()) continue;
    const index_t first = p.segments.front().start;
    const index_t span = p.period > 0 ? p.period : 1;
    if (l >= first) {
      const index_t k = p.period > 0 ? (l - first) / span : 0;
      if (k < p.repeat) {
        const index_t per_copy = p.size() / p.repeat;
        const index_t local = l - k * p.period;
        index_t offset = before + k * per_copy;
        for (const Segment& s : p.segments) {
          if (local >= s.start && local < s.start + s.length) return offset + (local - s.start);
          offset += s.length;
        }
      }
    }
    before += p.size();
  }
  return std::nullopt;
}

}  // namespace distarray
