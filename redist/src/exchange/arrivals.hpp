#pragma once
// Arrivals: the receives of an engine that unpacks on arrival (p2p,
// encoded).  Each message comes in one or more chunks (message_chunks.hpp)
// and has arrived once all of them have; the messages are handed over to
// unpack in waves (message_waves.hpp), one launch each, as each wave
// completes.

#include "exchange.hpp"
#include "message_waves.hpp"

#include <distarray/core/mpi_check.hpp>

#include <mpi.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace distarray::detail {

class Arrivals {
 public:
  /// The waves of the messages received (in message order).
  void set_waves(MessageWaves waves) {
    waves_ = std::move(waves);
    outstanding_.assign(waves_.messages(), -1);
  }
  /// A new execution: nothing posted.  Allocates nothing after the first.
  void reset() {
    requests_.clear();
    owner_.clear();
    completed_ = 0;
    std::fill(outstanding_.begin(), outstanding_.end(), -1);
    waves_.reset();
  }
  /// The receive requests: the caller appends message m's, then calls posted(m).
  std::vector<MPI_Request>& requests() { return requests_; }
  /// Message m's receives are the requests appended since the last call
  /// (none: it has arrived).
  void posted(std::size_t m) {
    outstanding_[m] = int(requests_.size() - owner_.size());
    owner_.resize(requests_.size(), m);
    if (outstanding_[m] == 0) waves_.arrived(m);
  }
  /// True once message m's receives are posted in this execution.
  bool is_posted(std::size_t m) const { return m < outstanding_.size() && outstanding_[m] >= 0; }

  /// Calls unpack(first, last) for every complete wave not handed over yet.
  template <class Unpack>
  void hand_over(const Unpack& unpack) {
    for (auto [first, last] = waves_.take(); first < last; std::tie(first, last) = waves_.take())
      unpack(first, last);
  }
  /// Progresses without blocking, handing complete waves over; true once
  /// every receive posted has completed.
  template <class Unpack>
  bool test(const Unpack& unpack) {
    indices_.resize(requests_.size());
    for (int count = 1; completed_ < requests_.size() && count > 0;) {
      DISTARRAY_MPI_CHECK(MPI_Testsome(int(requests_.size()), requests_.data(), &count, indices_.data(),
                                       MPI_STATUSES_IGNORE));
      for (int k = 0; k < count; ++k) complete(std::size_t(indices_[std::size_t(k)]), unpack);
    }
    return completed_ == requests_.size();
  }
  /// Completes every receive posted, handing the waves over as they complete.
  template <class Unpack>
  void wait(const Unpack& unpack) {
    while (completed_ < requests_.size()) {
      int index = MPI_UNDEFINED;
      DISTARRAY_MPI_CHECK(MPI_Waitany(int(requests_.size()), requests_.data(), &index, MPI_STATUS_IGNORE));
      complete(std::size_t(index), unpack);
    }
  }

 private:
  template <class Unpack>
  void complete(std::size_t request, const Unpack& unpack) {
    ++completed_;
    const std::size_t m = owner_[request];
    if (--outstanding_[m] > 0) return;
    waves_.arrived(m);
    hand_over(unpack);
  }

  MessageWaves waves_;
  std::vector<MPI_Request> requests_;
  std::vector<std::size_t> owner_;  // request -> its message
  std::vector<int> outstanding_;    // message -> chunks not yet arrived (-1: not posted)
  std::vector<int> indices_;        // MPI_Testsome's completed requests
  std::size_t completed_ = 0;
};

/// unpack(first, last) as a wave handler that times it: the time before it
/// as exchange, the unpack as unpacking; `t` is now, before and after.
template <class Unpack>
auto timed_unpack(Unpack unpack, PlanReport& report, double& t) {
  return [unpack, &report, &t](std::size_t first, std::size_t last) {
    t = add_seconds(report.exchange_seconds, t);
    unpack(first, last);
    t = add_seconds(report.unpack_seconds, t);
  };
}

}  // namespace distarray::detail
