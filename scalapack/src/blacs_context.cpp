#include "blacs_context.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <stdexcept>
#include <string>

extern "C" {
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_get(int ctxt, int what, int* value);
MPI_Comm Cblacs2sys_handle(int system_ctxt);
void Cfree_blacs_system_handle(int system_ctxt);
}

namespace distarray::scalapack {

GridPlace grid_place(int ctxt) {
  GridPlace g;
  if (ctxt < 0) return g;
  Cblacs_gridinfo(ctxt, &g.rows, &g.cols, &g.row, &g.col);
  if (g.row >= g.rows || g.col >= g.cols) g.row = g.col = -1;
  return g;
}

MPI_Comm context_comm(int ctxt, const GridPlace& place) {
  int system = 0;
  Cblacs_get(ctxt, 10, &system);  // 10: a system handle of the context's communicator
  const MPI_Comm comm = Cblacs2sys_handle(system);
  Cfree_blacs_system_handle(system);  // the handle only, not the communicator
  const int rank = detail::rank_of(comm), size = detail::ranks_of(comm);
  if (size != place.rows * place.cols || rank != place.row * place.cols + place.col)
    throw std::runtime_error("the communicator of BLACS context " + std::to_string(ctxt) +
                             " does not number its grid row-major (rank " + std::to_string(rank) + " of " +
                             std::to_string(size) + " at grid place " + std::to_string(place.row) + "," +
                             std::to_string(place.col) + ")");
  return comm;
}

}  // namespace distarray::scalapack
