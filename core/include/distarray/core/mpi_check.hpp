#pragma once
// DISTARRAY_MPI_CHECK(call): run an MPI call and turn an error code into an
// MpiError naming the call.  Library communicators use MPI_ERRORS_RETURN, so
// errors arrive here instead of aborting the job.

#include <distarray/core/error.hpp>

#include <mpi.h>

#include <string>

namespace distarray::detail {

inline void mpi_check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw MpiError(call, code, std::string(text, length));
}

}  // namespace distarray::detail

#define DISTARRAY_MPI_CHECK(call) ::distarray::detail::mpi_check((call), #call)
