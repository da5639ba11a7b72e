#pragma once
// One method of a row, measured: run into a cleared destination and checked
// element by element; only a right result is timed (a wrong one is reported
// as wrong, never timed).

#include "report.hpp"

#include <distarray/support/median_timing.hpp>

#include <Kokkos_Core.hpp>

#include <mpi.h>

#include <string>

namespace compare {

/// Times run() into `b` as row.seconds[method] (median of `reps`, slowest
/// rank) after `warmups` untimed runs (for methods that settle on their first
/// calls, as distarray's automatic engine does) and one checked run.
template <class Array, class Run, class Wrong>
void measure(Row& row, const std::string& method, Array& b, int reps, Run&& run, Wrong&& wrong_elements,
             int warmups = 0) {
  row.applies.insert(method);
  for (int i = 0; i < warmups; ++i) run();
  Kokkos::deep_copy(b.local(), typename Array::value_type(-1));
  run();
  if (wrong_elements() != 0)
    row.wrong.insert(method);
  else
    row.seconds[method] = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, run);
}

}  // namespace compare
