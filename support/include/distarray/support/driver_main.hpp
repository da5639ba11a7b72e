#pragma once
// main() of an MPI program of the examples and benchmarks: MPI and Kokkos up
// (distarray::Environment), run(argc, argv), and an exception from it said on
// stderr as "name: what" with exit status 1; --help (options.hpp's
// HelpAsked) prints "usage: name [options]" on rank 0 with exit status 0.

#include <distarray/core/environment.hpp>
#include <distarray/support/options.hpp>

#include <mpi.h>

#include <cstdio>
#include <exception>

namespace distarray::support {

/// "usage: name [options]" on rank 0; the exit status of a --help: 0.
inline int print_usage(const char* name, const HelpAsked& help) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("usage: %s %s\n", name, help.usage.c_str());
  return 0;
}

template <class Run>
int driver_main(const char* name, int argc, char** argv, Run&& run) {
  Environment env(argc, argv);
  try {
    return run(argc, argv);
  } catch (const HelpAsked& help) {
    return print_usage(name, help);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

}  // namespace distarray::support
