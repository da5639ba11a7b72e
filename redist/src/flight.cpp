#include <distarray/redist/detail/flight.hpp>

#include <cstdio>
#include <exception>

namespace distarray::detail {

Flight::Flight(std::vector<Step*> steps, PlanReport& report, std::function<void()> completed)
    : steps_(std::move(steps)), report_(report), completed_(std::move(completed)) {}

void Flight::start(std::vector<const void*> in, std::vector<std::vector<void*>> targets, const void* exec,
                   const std::function<void()>& copy) {
  ++execution_;
  exec_ = exec;
  current_ = 0;
  in_ = std::move(in);
  targets_ = std::move(targets);
  in_flight_ = true;
  if (steps_.empty()) {
    copy();
    in_flight_ = false;
    completed_();
    return;
  }
  grounded_on_error([&] { start_step(0); });
}

void Flight::start_step(std::size_t s) {
  if (s == 0)
    from_ = in_;
  else
    from_.assign(targets_[s - 1].begin(), targets_[s - 1].end());  // what the step before wrote
  steps_[s]->start(from_.data(), targets_[s].data(), int(in_.size()), report_, exec_);
}

bool Flight::advance(bool block) {
  bool complete = true;
  grounded_on_error([&] {
    while (in_flight_) {
      Step& step = *steps_[current_];
      if (block)
        step.wait(report_);
      else if (!step.test(report_)) {
        complete = false;
        return;
      }
      if (++current_ == steps_.size()) {
        in_flight_ = false;
        completed_();
        return;
      }
      start_step(current_);
    }
  });
  return complete;
}

template <class F>
void Flight::grounded_on_error(F&& f) {
  try {
    f();
  } catch (...) {
    in_flight_ = false;  // what failed is not in flight: no later wait or destructor waits on it
    throw;
  }
}

void Flight::complete_quietly(const char* who) noexcept {
  try {
    wait();
  } catch (const std::exception& e) {
    in_flight_ = false;
    std::fprintf(stderr, "distarray: %s was destroyed while executing; completing it failed: %s\n", who,
                 e.what());
  }
}

void Flight::abandon() noexcept {
  complete_quietly("a plan");
  steps_.clear();
}

}  // namespace distarray::detail
