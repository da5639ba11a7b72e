#pragma once
// The check of an agreed refusal: the same typed error on every rank, under
// a watchdog, and a barrier every rank must reach afterwards.

#include "mpi/watchdog.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <exception>
#include <string>

namespace distarray::testing {

/// f() must throw E on every rank with a message containing `fragment`.
template <class E, class F>
void expect_agreed(const std::string& what, F&& f, const std::string& fragment) {
  const Watchdog watchdog(what, 120);
  std::string message = "(no exception)";
  try {
    f();
  } catch (const E& e) {
    message = e.what();
  } catch (const std::exception& e) {
    message = std::string("another exception: ") + e.what();
  }
  EXPECT_NE(message.find(fragment), std::string::npos) << what << ": " << message;
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace distarray::testing
