#pragma once
// The shared machinery of the schedule generators: the periodic window of one
// side of a 1-D redistribution, and the builder that turns the pieces a
// generator finds in that window into PeerRuns.

#include <distarray/core/dist1d.hpp>
#include <distarray/redist/runs.hpp>

#include <vector>

namespace distarray::detail {

/// The local index window a generator enumerates (Hsu-Chung Lemma 1).
struct Window {
  /// Local elements per lcm period L/P; 0 when the array is shorter than L,
  /// so there is no repetition to exploit.
  index_t period = 0;
  /// Local indices [0, end) to enumerate: the period, or the whole local extent.
  index_t end = 0;
  /// Global elements the window covers: L, or N.
  index_t global_end = 0;
};

Window periodic_window(const Dist1D& local, int proc, const Dist1D& remote);
/// No periodicity: the whole local extent (the brute-force oracle).
Window whole_window(const Dist1D& local, int proc);

/// Collects pieces (peer, local segment) in increasing local order per peer.
class PartitionBuilder {
 public:
  /// Local indices [start, start+length) go to `peer`.
  void add(int peer, index_t start, index_t length);
  /// `count` segments of `length` at start + i*stride go to `peer`.
  void add_strided(int peer, index_t start, index_t length, index_t stride, index_t count);

  /// Repeats the window's pieces over the local extent and clips the last
  /// partial window; peers sorted, empty ones dropped.
  std::vector<PeerRuns> finish(const Window& window, index_t local_extent);

 private:
  struct Piece {
    int peer;
    RunPattern run;  // one segment, repeated (stride, count)
  };
  std::vector<Piece> pieces_;
};

}  // namespace distarray::detail
