// Flight (detail/exec/flight.hpp): a plan's execution in progress, step by
// step; and Request (request.hpp), the handle of one execution of it.

#include <distarray/redist/detail/exec/flight.hpp>
#include <distarray/redist/request.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>

namespace distarray::detail {

Flight::Flight(std::vector<std::unique_ptr<Step>> steps, PlanReport report, std::string engine)
    : steps_(std::move(steps)), report_(std::move(report)), engine_(std::move(engine)) {
  report_.exchange = engine_names();
  report_.settled = agreed_settled_ = settled();  // (the Executor agrees on it)
}

bool Flight::settled() const {
  return std::all_of(steps_.begin(), steps_.end(), [](const auto& step) { return step->settled(); });
}

std::string Flight::engine_names() const {
  std::vector<std::string> names;  // each once, compared whole ("alltoallv" is not "alltoallv(neighbors)")
  for (const auto& step : steps_)
    if (std::find(names.begin(), names.end(), step->engine()) == names.end()) names.push_back(step->engine());
  std::string s;
  for (const std::string& name : names) s += (s.empty() ? "" : ",") + name;
  return s.empty() ? engine_ : s;
}

void Flight::completed() {
  in_flight_ = false;
  ++report_.executions;
  // The automatic engine settles after a few executions, and measures again
  // where the kept engine slows down; the report says what every rank agreed
  // at this execution's start.
  report_.settled = agreed_settled_;
  if (naming_ || !settled()) report_.exchange = engine_names();
}

void Flight::start(std::vector<const void*> in, std::vector<std::vector<void*>> targets,
                   const std::function<void()>& copy, StartAgreement agreement) {
  ++execution_;
  current_ = 0;
  in_ = std::move(in);
  targets_ = std::move(targets);
  in_flight_ = true;
  report_.pack_launches = report_.unpack_launches = report_.local_launches = 0;
  naming_ = !settled();
  if (steps_.empty()) {
    copy();
    completed();
    return;
  }
  grounded_on_error([&] { start_step(0, agreement); });
  if (agreement.carried) ++report_.agreements_in_exchange;
}

void Flight::start_step(std::size_t s, StartAgreement agreement) {
  if (s == 0)
    from_ = in_;
  else
    from_.assign(targets_[s - 1].begin(), targets_[s - 1].end());  // what the step before wrote
  steps_[s]->start(from_, targets_[s], report_, agreement);
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
        completed();
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

namespace distarray {

Request::Request(std::shared_ptr<detail::Flight> flight, long execution)
    : flight_(std::move(flight)), execution_(execution) {}

Request& Request::operator=(Request&& other) {
  if (this != &other) {
    wait();
    flight_ = std::move(other.flight_);
    execution_ = other.execution_;
  }
  return *this;
}

Request::~Request() {
  if (pending()) flight_->complete_quietly("a request");
}

bool Request::pending() const {
  // A later execution of the same plan can only have started after this one completed.
  return flight_ && flight_->in_flight() && flight_->execution() == execution_;
}

bool Request::test() { return !pending() || flight_->test(); }

void Request::wait() {
  if (pending()) flight_->wait();
}

}  // namespace distarray
