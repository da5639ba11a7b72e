#pragma once
// MessageWaves: messages handled on arrival in a bounded number of kernel
// launches.  Thakur's asynchronous method (the p2p engine) unpacks messages
// while others are still on their way; one launch per message would cost
// launches (and on a GPU, staging copies and fences) that grow with the
// rank count.  Instead the messages are cut once into waves: contiguous
// ranges in message order, each but the last holding at least 1/max_waves
// of the elements, so at most max_waves of them whatever the message
// count.  A wave is taken as soon as all of its messages have arrived, in
// any order, so every execution has the same waves and the same launches.
// The sending side stages its messages in the same way.

#include <distarray/core/types.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace distarray::detail {

class MessageWaves {
 public:
  using Range = std::pair<std::size_t, std::size_t>;  ///< messages [first, last)
  /// At most this many waves per execution.
  static constexpr int max_waves = 4;

  MessageWaves() = default;
  /// `counts`: the elements of each message, in message order.
  explicit MessageWaves(std::vector<index_t> counts);

  /// A new execution: nothing has arrived.  Allocates nothing.
  void reset();
  /// Message m has arrived (or needs no transfer: the message to oneself).
  void arrived(std::size_t m);
  /// A wave whose messages have all arrived, not taken before ([0, 0) for none).
  Range take();
  /// The number of waves: the same in every execution.
  std::size_t waves() const { return bounds_.size() - 1; }
  std::size_t messages() const { return wave_of_.size(); }

 private:
  std::vector<std::size_t> bounds_{0};  // wave w is messages [bounds_[w], bounds_[w + 1])
  std::vector<std::size_t> wave_of_;    // message -> its wave
  std::vector<std::size_t> missing_;    // wave -> messages not yet arrived
  std::vector<std::size_t> ready_;      // waves complete and not yet taken
};

}  // namespace distarray::detail
