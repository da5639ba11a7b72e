#pragma once
// Timing a collective operation the way the examples and benchmarks report it: the slowest
// rank's time per repetition (after a barrier), median over repetitions.

#include <distarray/core/mpi_check.hpp>

#include <mpi.h>

#include <algorithm>
#include <vector>

namespace distarray::support {

/// The slowest rank's seconds for f() in each of `reps` repetitions, fastest
/// first; before() runs untimed ahead of each repetition.  Collective over comm.
template <class Before, class F>
std::vector<double> slowest_seconds(MPI_Comm comm, int reps, Before&& before, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    before();
    DISTARRAY_MPI_CHECK(MPI_Barrier(comm));
    const double start = MPI_Wtime();
    f();
    double elapsed = MPI_Wtime() - start;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm));
    t.push_back(elapsed);
  }
  std::sort(t.begin(), t.end());
  return t;
}

/// The median of times sorted fastest first (the upper one of an even count).
inline double median_of_sorted(const std::vector<double>& t) { return t.empty() ? 0.0 : t[t.size() / 2]; }

/// Median over `reps` repetitions of the slowest rank's seconds for f().
template <class Before, class F>
double median_slowest_seconds(MPI_Comm comm, int reps, Before&& before, F&& f) {
  return median_of_sorted(slowest_seconds(comm, reps, before, f));
}

template <class F>
double median_slowest_seconds(MPI_Comm comm, int reps, F&& f) {
  return median_slowest_seconds(
      comm, reps, [] {}, f);
}

}  // namespace distarray::support
