#pragma once
// The automatic engine's watch of the engine it kept (automatic.cpp): the
// times of its last `size` executions, and their median each time `size`
// more have completed: a median, as eight 0.05 ms executions fit in one
// scheduler slice that slows every engine alike.  And its patience: how
// many windows in a row a fall must last before the engines are measured
// again, doubled after each false alarm (a measuring that kept the engine it
// watched): a watch fooled again and again would have its plan measure for
// ever (a 13x11 plan on 4 ranks sharing 2 cores measured for 104
// executions, its steps' windows falling behind in turn: ARCHITECTURE Sec. 4.8).

#include <algorithm>
#include <array>
#include <cstddef>

namespace distarray::detail {

class WatchWindow {
 public:
  static constexpr int size = 8;
  /// The most windows a fall must last: a kept engine that falls behind is
  /// left within 4 windows and their re-trials, however often it was fooled.
  static constexpr int most_patience = 4;

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
  /// A newly kept engine: nothing watched yet (the patience stays).
  void restart() {
    watched_ = 0;
    due_ = false;
    fallen_windows_ = 0;
  }

  /// Whether a fall of the kept engine, seen at this window (`fell`) or
  /// not, has now lasted `patience` windows in a row: measure again.
  bool fall_lasted(bool fell) {
    fallen_windows_ = fell ? fallen_windows_ + 1 : 0;
    if (fallen_windows_ < patience_) return false;
    fallen_windows_ = 0;
    return true;
  }
  /// Measuring again kept the engine watched: twice the patience.
  void false_alarm() { patience_ = std::min(2 * patience_, most_patience); }

 private:
  std::array<double, size> times_{};
  long watched_ = 0;  // executions since the engine was kept
  bool due_ = false;
  int fallen_windows_ = 0;  // windows in a row whose fall a re-trial confirmed
  int patience_ = 1;        // fallen windows in a row that measure again
};

}  // namespace distarray::detail
