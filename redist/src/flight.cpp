#include <distarray/redist/detail/flight.hpp>

#include <cstdio>
#include <exception>

namespace distarray::detail {

Flight::Flight(std::vector<Step*> steps, std::vector<void*> stages, PlanReport& report,
               std::function<void()> completed)
    : steps_(std::move(steps)),
      targets_(std::move(stages)),
      report_(report),
      completed_(std::move(completed)) {
  targets_.push_back(nullptr);  // the destination, set by start()
}

void Flight::start(const void* in, void* out, const std::function<void()>& copy) {
  ++execution_;
  current_ = 0;
  targets_.back() = out;
  in_flight_ = true;
  if (steps_.empty()) {
    copy();
    in_flight_ = false;
    completed_();
    return;
  }
  grounded_on_error([&] { steps_[0]->start(in, targets_[0], report_); });
}

bool Flight::advance(bool block) {
  bool complete = true;
  grounded_on_error([&] {
    while (in_flight_) {
      Step& step = *steps_[current_];
      if (block)
        step.wait(targets_[current_], report_);
      else if (!step.test(targets_[current_], report_)) {
        complete = false;
        return;
      }
      if (++current_ == steps_.size()) {
        in_flight_ = false;
        completed_();
        return;
      }
      steps_[current_]->start(targets_[current_ - 1], targets_[current_], report_);
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

void Flight::abandon() noexcept {
  try {
    wait();
  } catch (const std::exception& e) {
    in_flight_ = false;
    std::fprintf(stderr, "distarray: a plan was destroyed while executing; completing it failed: %s\n",
                 e.what());
  }
  steps_.clear();
}

}  // namespace distarray::detail
