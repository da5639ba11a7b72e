#include "message_waves.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace distarray::detail {

MessageWaves::MessageWaves(std::vector<index_t> counts) {
  const index_t total = std::accumulate(counts.begin(), counts.end(), index_t(0));
  // Every wave but the last holds at least this: at most max_waves of them
  // (messages are never empty).
  const index_t least = std::max<index_t>(1, (total + max_waves - 1) / max_waves);
  index_t held = 0;
  for (std::size_t m = 0; m < counts.size(); ++m) {
    wave_of_.push_back(bounds_.size() - 1);
    held += counts[m];
    if (held >= least || m + 1 == counts.size()) {
      bounds_.push_back(m + 1);
      held = 0;
    }
  }
  ready_.reserve(waves());  // executions allocate nothing
  reset();
}

void MessageWaves::reset() {
  missing_.resize(waves());
  for (std::size_t w = 0; w < waves(); ++w) missing_[w] = bounds_[w + 1] - bounds_[w];
  ready_.clear();
}

void MessageWaves::arrived(std::size_t m) {
  const std::size_t w = wave_of_.at(m);
  if (missing_[w] == 0) throw std::logic_error("MessageWaves: a message arrived twice");
  if (--missing_[w] == 0) ready_.push_back(w);
}

MessageWaves::Range MessageWaves::take() {
  if (ready_.empty()) return {0, 0};
  const std::size_t w = ready_.back();
  ready_.pop_back();
  return {bounds_[w], bounds_[w + 1]};
}

}  // namespace distarray::detail
