#pragma once
// Request: one non-blocking execution of a plan (Plan::start).
//
//   auto request = plan.start(a, b);   // packs a, posts the messages
//   ... work that neither writes a nor reads b ...
//   request.wait();                    // b holds the result
//
// test() progresses the execution without blocking (unpacks what has
// arrived; starts the next exchange of a multi-step plan) and says whether
// it is complete.  Until then `a` must not be written and `b` not read.  A
// plan has one execution in flight at a time: starting another before this
// one completes throws UsageError.  Destroying a request (or its plan) while
// the execution is in flight completes it first.

#include <memory>

namespace distarray {

namespace detail {
class Flight;
}

class [[nodiscard]] Request {
 public:
  /// A request for nothing: complete.
  Request() = default;
  /// Execution number `execution` of `flight` (made by Plan::start).
  Request(std::shared_ptr<detail::Flight> flight, long execution);
  Request(Request&& other) noexcept = default;
  /// Completes the execution this request named, then takes `other`'s.
  Request& operator=(Request&& other);
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  /// Progresses without blocking; true once the execution is complete.
  bool test();
  /// Completes the execution: the destination holds the result.
  void wait();
  /// True once the execution is complete (no progress is made).
  bool done() const { return !pending(); }

 private:
  bool pending() const;

  std::shared_ptr<detail::Flight> flight_;
  long execution_ = 0;
};

}  // namespace distarray
