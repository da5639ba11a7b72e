#include "same_arguments.hpp"

#include <distarray/core/detail/collective.hpp>
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

/// What of `m` every rank must pass alike: all but this rank's leading dimension.
std::string matrix_text(const BlockCyclicMatrix& m) {
  std::string text;
  for (const CyclicAxis& x : m.axes)
    text += std::to_string(x.extent()) + " in blocks of " + std::to_string(x.block()) + " over " +
            std::to_string(x.procs()) + " from " + std::to_string(x.source()) + "; ";
  text += "ranks";
  for (const int r : m.ranks) text += " " + std::to_string(r);
  return text + (m.order == StorageOrder::row_major ? "; row-major" : "; column-major");
}

}  // namespace

MatrixTransformLogic::MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at,
                                           const BlockCyclicMatrix& b, Index<2> b_at, Index<2> extent,
                                           MatrixOp op, MPI_Comm comm, bool copies_only,
                                           const PlanOptions& options)
    : op_(op) {
  const int rank = detail::rank_of(comm), size = detail::ranks_of(comm);
  const bool transpose = op != MatrixOp::none;
  const char* const op_names[] = {"none", "transpose", "conjugate transpose"};
  detail::agree_same_arguments(comm, "MatrixTransform",
                               {{"matrix A", matrix_text(a)},
                                {"matrix B", matrix_text(b)},
                                {"the windows", "A at " + pair_text(a_at) + ", B at " + pair_text(b_at) +
                                                    ", extent " + pair_text(extent)},
                                {"op", op_names[int(op)]},
                                {"the executions", copies_only ? "copies only (alpha = 1, beta = 0)" : "any"},
                                {"the plan options", to_string(options)}});
  const bool encode = options.exchange == ExchangeEngine::encoded;
  tables_ = agreed(comm, [&] {
    a.validate(rank, size);
    b.validate(rank, size);
    check_window("B", b, b_at, extent);
    check_window("A", a, a_at, transpose ? Index<2>{extent[1], extent[0]} : extent);
    return matrix_tables(a, a_at, b, b_at, extent, transpose, rank, encode);
  });
}

}  // namespace distarray::detail
