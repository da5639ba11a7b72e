#pragma once
// ProcGrid<D>: a GridShape bound to the ranks of an MPI communicator.  It owns
// a duplicate of the communicator (so library traffic never meets the user's)
// and one sub-communicator per grid dimension, joining the ranks that differ
// only in that coordinate.  Ranks outside the grid hold no coordinate and
// MPI_COMM_NULL sub-communicators, and every call works on them too.
// Construction is collective over the communicator.

#include <distarray/core/grid_shape.hpp>
#include <distarray/core/mpi_check.hpp>

#include <mpi.h>

#include <array>
#include <optional>
#include <string>

namespace distarray {

template <int D>
class ProcGrid {
 public:
  ProcGrid(const GridShape<D>& shape, MPI_Comm parent) : shape_(shape) {
    int size = 0;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(parent, &size));
    // Checked before any collective so that every rank throws, none waits.
    if (shape_.end_rank() > size)
      throw LayoutError("grid 'on " + shape_.to_string() + "' needs ranks " +
                        std::to_string(shape_.first_rank) + ".." + std::to_string(shape_.end_rank() - 1) +
                        " but the communicator has " + std::to_string(size) + " ranks");
    DISTARRAY_MPI_CHECK(MPI_Comm_dup(parent, &comm_));
    DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    size_ = size;
    coord_ = shape_.coord_of(rank_);
    dim_comms_.fill(MPI_COMM_NULL);
    for (int d = 0; d < D; ++d)  // ranked along each line by the coordinate along d
      DISTARRAY_MPI_CHECK(MPI_Comm_split(comm_, coord_ ? shape_.line_of(*coord_, d) : MPI_UNDEFINED,
                                         coord_ ? (*coord_)[d] : 0, &dim_comms_[d]));
  }

  ProcGrid(const ProcGrid&) = delete;
  ProcGrid& operator=(const ProcGrid&) = delete;

  ~ProcGrid() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (MPI_Comm& c : dim_comms_)
      if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  const GridShape<D>& shape() const { return shape_; }
  /// The library's duplicate of the parent communicator (all its ranks).
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int comm_size() const { return size_; }
  /// This rank's grid coordinate; empty outside the grid.
  const std::optional<Coord<D>>& coord() const { return coord_; }
  bool contains_me() const { return coord_.has_value(); }
  /// Ranks along dimension d that share this rank's other coordinates,
  /// ordered by coordinate d; MPI_COMM_NULL outside the grid.
  MPI_Comm dim_comm(int d) const { return dim_comms_[d]; }

 private:
  GridShape<D> shape_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
  std::optional<Coord<D>> coord_;
  std::array<MPI_Comm, D> dim_comms_{};
};

}  // namespace distarray
