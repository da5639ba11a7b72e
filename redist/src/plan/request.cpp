#include <distarray/redist/detail/exec/flight.hpp>
#include <distarray/redist/request.hpp>

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
