#include "detail/partition.hpp"

#include "detail/arith.hpp"

#include <distarray/core/error.hpp>

#include <algorithm>
#include <limits>

namespace distarray::detail {

Window periodic_window(const Dist1D& local, int proc, const Dist1D& remote) {
  const index_t n = local.extent();
  const auto l = lcm_up_to(local.cycle_length(), remote.cycle_length(), std::max<index_t>(n, 1));
  if (!l || *l > n) return whole_window(local, proc);
  return Window{*l / local.procs(), *l / local.procs(), *l};
}

Window whole_window(const Dist1D& local, int proc) {
  return Window{0, local.local_extent(proc), local.extent()};
}

void PartitionBuilder::add(int peer, index_t start, index_t length) {
  if (length > 0) pieces_.push_back({peer, RunPattern{0, 1, {{start, length}}}});
}

void PartitionBuilder::add_strided(int peer, index_t start, index_t length, index_t stride, index_t count) {
  if (length > 0 && count > 0) pieces_.push_back({peer, RunPattern{stride, count, {{start, length}}}});
}

namespace {

/// Appends [start, start+length), merging with a contiguous predecessor.
void append(std::vector<Segment>& segs, index_t start, index_t length) {
  if (length <= 0) return;
  if (!segs.empty() && segs.back().start + segs.back().length == start)
    segs.back().length += length;
  else
    segs.push_back({start, length});
}

/// Folds runs of three or more equal, equally spaced segments into one
/// strided pattern each; the rest stay plain lists.
std::vector<RunPattern> fold_progressions(const std::vector<Segment>& segs) {
  std::vector<RunPattern> out;
  std::size_t i = 0;
  while (i < segs.size()) {
    std::size_t j = i + 1;
    if (j < segs.size()) {
      const index_t stride = segs[j].start - segs[i].start;
      while (j + 1 < segs.size() && segs[j + 1].length == segs[i].length &&
             segs[j].length == segs[i].length && segs[j + 1].start - segs[j].start == stride)
        ++j;
      if (j - i >= 2 && segs[j].length == segs[i].length) {
        out.push_back(RunPattern{stride, index_t(j - i + 1), {segs[i]}});
        i = j + 1;
        continue;
      }
    }
    if (out.empty() || out.back().repeat != 1) out.push_back(RunPattern{0, 1, {}});
    out.back().segments.push_back(segs[i]);
    ++i;
  }
  return out;
}

}  // namespace

std::vector<PeerRuns> PartitionBuilder::finish(const Window& window, index_t local_extent) {
  std::stable_sort(pieces_.begin(), pieces_.end(),
                   [](const Piece& a, const Piece& b) { return a.peer < b.peer; });
  std::vector<PeerRuns> result;
  for (std::size_t i = 0; i < pieces_.size();) {
    const int peer = pieces_[i].peer;
    // This peer's segments in one window, in increasing local order.
    std::vector<Segment> segs;
    for (; i < pieces_.size() && pieces_[i].peer == peer; ++i) {
      const RunPattern& r = pieces_[i].run;
      for (index_t k = 0; k < r.repeat; ++k) {
        const index_t start = r.segments[0].start + k * r.period;
        if (start >= window.end) break;  // generators may overshoot a ragged last block
        append(segs, start, std::min(r.segments[0].length, window.end - start));
      }
    }
    PeerRuns runs{peer, {}};
    if (window.period == 0) {
      runs.patterns = fold_progressions(segs);
    } else {
      const index_t repeat = local_extent / window.period;
      const index_t tail = local_extent - repeat * window.period;
      if (repeat > 0) runs.patterns.push_back(RunPattern{window.period, repeat, segs});
      std::vector<Segment> clipped;
      for (const Segment& s : segs)
        if (s.start < tail)
          clipped.push_back({s.start + repeat * window.period, std::min(s.length, tail - s.start)});
      if (!clipped.empty()) runs.patterns.push_back(RunPattern{0, 1, clipped});
    }
    if (runs.size() > 0) result.push_back(std::move(runs));
  }
  pieces_.clear();
  return result;
}

}  // namespace distarray::detail
