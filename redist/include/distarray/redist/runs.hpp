#pragma once
// Local index runs in periodic form: what one rank exchanges with one peer
// along one dimension.  Their size depends on the distributions' periods,
// not on the array extent.
//
// Invariant: expanding a PeerRuns gives strictly increasing local indices.
// Local order is global order on every process of a block-cyclic
// distribution, so a message is the peer's elements in increasing global
// index on both sides, whichever generator built either side.

#include <distarray/core/types.hpp>

#include <optional>
#include <vector>

namespace distarray {

/// Local indices [start, start + length).
struct Segment {
  index_t start = 0;
  index_t length = 0;
  friend bool operator==(const Segment&, const Segment&) = default;
};

/// `repeat` copies of `segments`, the k-th shifted by k*period.  The segments
/// are increasing and span less than one period.
struct RunPattern {
  index_t period = 0;
  index_t repeat = 1;
  std::vector<Segment> segments;

  index_t size() const;
  friend bool operator==(const RunPattern&, const RunPattern&) = default;
};

/// The local indices one rank exchanges with one peer (a process index along
/// the dimension), in message order.
struct PeerRuns {
  int peer = 0;
  std::vector<RunPattern> patterns;

  /// Number of elements.
  index_t size() const;
  /// Number of (start, length) segments after expanding the patterns.
  index_t segment_count() const;
  /// Position in the message of local index l, or nothing if l is not exchanged with this peer.
  std::optional<index_t> offset_of(index_t l) const;

  /// Calls f(start, length) for every segment in message order.
  template <class F>
  void for_each_segment(F&& f) const {
    for (const RunPattern& p : patterns)
      for (index_t k = 0; k < p.repeat; ++k)
        for (const Segment& s : p.segments) f(s.start + k * p.period, s.length);
  }

  friend bool operator==(const PeerRuns&, const PeerRuns&) = default;
};

}  // namespace distarray
