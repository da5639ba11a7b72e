#pragma once
// The parts of the Python module each file of this folder registers.

#include "dispatch.hpp"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <vector>

namespace distarray::python {

/// The MPI_Comm at `address` (mpi4py's MPI._addressof(comm)).
MPI_Comm comm_at(std::uintptr_t address);

template <std::size_t D>
std::vector<index_t> as_vector(const std::array<index_t, D>& a) {
  return {a.begin(), a.end()};
}

void bind_plans(pybind11::module_& m);      // plans.cpp
void bind_io(pybind11::module_& m);         // io.cpp
void bind_transform(pybind11::module_& m);  // transform.cpp

}  // namespace distarray::python
