#pragma once
// main() of an MPI program of the examples and benchmarks: MPI and Kokkos up
// (distarray::Environment), run(argc, argv), and an exception from it said on
// stderr as "name: what" with exit status 1.

#include <distarray/core/environment.hpp>

#include <cstdio>
#include <exception>

namespace distarray::support {

template <class Run>
int driver_main(const char* name, int argc, char** argv, Run&& run) {
  Environment env(argc, argv);
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 1;
  }
}

}  // namespace distarray::support
