#pragma once
// Typed exceptions: every error a user can cause is one of these, thrown on
// every rank that sees the bad input, with a message naming the culprit.

#include <stdexcept>
#include <string>

namespace distarray {

/// Base of every exception distarray throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Invalid layout text, distribution parameters or process grid.
class LayoutError : public Error {
 public:
  using Error::Error;
};

/// Two objects that must agree in shape, rank count or element type do not.
class ShapeMismatch : public Error {
 public:
  using Error::Error;
};

/// An MPI call returned an error code.
class MpiError : public Error {
 public:
  MpiError(const std::string& call, int code, const std::string& text)
      : Error(call + " failed: " + text), code_(code) {}
  /// The same error as received from another rank: the whole message.
  MpiError(int code, const std::string& message) : Error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

/// A schedule generator was asked for a case it does not handle.
class ScheduleError : public Error {
 public:
  using Error::Error;
};

/// A checkpoint file or dataset is missing, malformed or does not match.
class CheckpointError : public Error {
 public:
  using Error::Error;
};

/// Memory for a local block, buffer or table could not be allocated; the
/// message says how many bytes were asked for.
class AllocationError : public Error {
 public:
  using Error::Error;
};

/// A use the API does not allow — an unknown option or value, a refused
/// combination, a call out of order — and bad command-line arguments of the
/// distarray tool.
class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace distarray
