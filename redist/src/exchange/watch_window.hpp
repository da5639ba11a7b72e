#pragma once
// The automatic engine's watch of the engine it kept (automatic.cpp): the
// times of its last `size` executions, and their median each time `size`
// more have completed: a median, as eight 0.05 ms executions fit in one
// scheduler slice that slows every engine alike.

#include <algorithm>
#include <array>
#include <cstddef>

namespace distarray::detail {

class WatchWindow {
 public:
  static constexpr int size = 8;

  /// An execution of the kept engine completed in `seconds` (this rank's).
  void add(double seconds) {
    times_[std::size_t(watched_++ % size)] = seconds;
    due_ = watched_ % size == 0;
  }
  /// `size` executions since the last median: the watch is due.  Alike on
  /// every rank of the step (each counts the same executions).
  bool due() const { return due_; }
  /// This rank's median of the window; the watch is no longer due.
  double median() {
    due_ = false;
    std::array<double, size> w = times_;
    std::nth_element(w.begin(), w.begin() + size / 2, w.end());
    return w[size / 2];
  }
  /// A newly kept engine: nothing watched yet.
  void restart() {
    watched_ = 0;
    due_ = false;
  }

 private:
  std::array<double, size> times_{};
  long watched_ = 0;  // executions since the engine was kept
  bool due_ = false;
};

}  // namespace distarray::detail
