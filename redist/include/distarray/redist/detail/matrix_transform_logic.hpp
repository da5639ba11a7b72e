#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/matrix_transform_logic.hpp is internal: include <distarray/redist.hpp>"
#endif
// The untyped half of a MatrixTransform (matrix_transform.hpp), as PlanLogic
// is a Plan's: the checked inputs, the transform's communicators and this
// rank's copy tables (redist/src/matrix/matrix_transform.cpp).

#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/matrix_tables.hpp>

#include <mpi.h>

#include <cstddef>
#include <functional>

namespace distarray::detail {

class MatrixTransformLogic {
 public:
  /// Collective over `comm`: LayoutError or ShapeMismatch on every rank for
  /// bad matrices or windows.
  MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                       Index<2> extent, MatrixOp op, MPI_Comm comm);
  MatrixTransformLogic(const MatrixTransformLogic&) = delete;
  MatrixTransformLogic& operator=(const MatrixTransformLogic&) = delete;
  ~MatrixTransformLogic();

  /// The communicator the exchange runs on (the caller's, duplicated).
  MPI_Comm comm() const { return comm_; }
  const MatrixTables& tables() const { return tables_; }
  MatrixOp op() const { return op_; }
  /// Collective, before an execution of `pairs` matrix pairs starts anything:
  /// PlanLogic::agree_to_start's agreement, on a communicator of its own.
  void agree_to_start(std::size_t pairs, const std::function<void()>& checks) const;

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm control_comm_ = MPI_COMM_NULL;  // agree_to_start's
  MatrixOp op_;
  MatrixTables tables_;
};

}  // namespace distarray::detail
