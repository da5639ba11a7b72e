#pragma once
// A BLACS context as distarray sees it: its grid, this process's place in
// it, and the MPI communicator BLACS keeps for it, whose ranks number the
// grid row-major (BLACS_GET's "what = 10" hands it over as a system handle).

#include <mpi.h>

namespace distarray::scalapack {

struct GridPlace {
  int rows = 0, cols = 0;  ///< the grid's extents
  int row = -1, col = -1;  ///< this process's place; -1 outside the grid
  bool inside() const { return row >= 0 && col >= 0; }
};

/// The grid of context `ctxt`; outside (-1) for ctxt < 0 (ScaLAPACK's
/// convention for a descriptor of a process outside the matrix's grid).
GridPlace grid_place(int ctxt);

/// The communicator of context `ctxt` (this process in it): rank = row * cols
/// + col.  BLACS owns it; it lives as long as the context.
MPI_Comm context_comm(int ctxt, const GridPlace& place);

}  // namespace distarray::scalapack
