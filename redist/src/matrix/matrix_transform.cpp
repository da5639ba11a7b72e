#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/matrix_transform.hpp>

#include <array>
#include <string>

namespace distarray::detail {

namespace {

std::string pair_text(const Index<2>& i) {
  return "(" + std::to_string(i[0]) + ", " + std::to_string(i[1]) + ")";
}

/// ShapeMismatch unless the window of `extent` at `at` lies inside `m`.
void check_window(const char* name, const BlockCyclicMatrix& m, const Index<2>& at, const Index<2>& extent) {
  for (std::size_t d = 0; d < 2; ++d)
    if (at[d] < 0 || extent[d] < 0 || at[d] + extent[d] > m.axes[d].extent())
      throw ShapeMismatch(std::string("matrix transform: the ") + pair_text(extent) + " window of " + name +
                          " at " + pair_text(at) + " leaves its " +
                          extents_text(std::array{m.axes[0].extent(), m.axes[1].extent()}) + " matrix");
}

}  // namespace

MatrixTransformLogic::MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at,
                                           const BlockCyclicMatrix& b, Index<2> b_at, Index<2> extent,
                                           MatrixOp op, MPI_Comm comm)
    : op_(op) {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
  DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm_, &control_comm_));
  const int rank = detail::rank_of(comm_), size = detail::ranks_of(comm_);
  const bool transpose = op != MatrixOp::none;
  try {
    tables_ = agreed(comm_, [&] {
      a.validate(rank, size);
      b.validate(rank, size);
      check_window("B", b, b_at, extent);
      check_window("A", a, a_at, transpose ? Index<2>{extent[1], extent[0]} : extent);
      return matrix_tables(a, a_at, b, b_at, extent, transpose, rank);
    });
  } catch (...) {
    MPI_Comm_free(&control_comm_);
    MPI_Comm_free(&comm_);
    throw;
  }
}

MatrixTransformLogic::~MatrixTransformLogic() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (control_comm_ != MPI_COMM_NULL) MPI_Comm_free(&control_comm_);
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MatrixTransformLogic::agree_to_start(std::size_t pairs, const std::function<void()>& checks) const {
  agree_on_checks(control_comm_, long(pairs), "the number of matrix pairs to move", checks);
}

}  // namespace distarray::detail
