#pragma once
// Errors a user sees on every rank: f() throws a distarray::Error whose text
// holds `fragment` here, and no rank is left inside a collective.

#include <distarray/core/error.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>

namespace distarray::testing {

template <class F>
void expect_throw_on_every_rank(F&& f, const std::string& fragment) {
  std::string message = "(no exception)";
  try {
    f();
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(fragment), std::string::npos) << message;
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace distarray::testing
