#pragma once
// Steps told apart by their contents, and fresh file names, for the series tests.

#include <distarray/core/dist_array.hpp>

#include "mpi/pattern.hpp"
#include "mpi/world.hpp"

#include <filesystem>
#include <string>

namespace distarray::testing {

/// The pattern shifted by the step, so that steps are told apart.
template <class T, int D, class M, class O>
void fill_step(DistArray<T, D, M, O>& a, int step) {
  const Index<D> shape = a.layout().shape();
  a.fill([&](const Index<D>& g) { return pattern_value<T, D>(g, shape) + T(1000 * step); });
}

template <class T, int D, class M, class O>
index_t step_mismatches(const DistArray<T, D, M, O>& a, int step) {
  auto host = Kokkos::create_mirror_view(a.local());
  Kokkos::deep_copy(host, a.local());
  index_t bad = 0;
  for (index_t i = 0; i < a.local_size(); ++i) {
    const Index<D> g = a.global_index(a.local_index(i));
    bad += host.data()[i] != pattern_value<T, D>(g, a.layout().shape()) + T(1000 * step);
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return bad;
}

/// This launch's file of `stem`, gone, with the step journal a killed
/// earlier launch may have left beside it (refused then: another file's).
inline std::string fresh(const std::string& stem) {
  const std::string path = launch_file(stem);
  if (world_rank() == 0) {
    std::filesystem::remove(path);
    std::filesystem::remove(path + ".distarray-journal");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

}  // namespace distarray::testing
