#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/matrix_transform_logic.hpp is internal: include <distarray/redist.hpp>"
#endif
// The untyped half of a MatrixTransform (matrix_transform.hpp), as PlanLogic
// is a Plan's: the checked inputs, the transform's communicators and this
// rank's copy tables (redist/src/matrix/matrix_transform.cpp).

#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/exec/plan_communicators.hpp>
#include <distarray/redist/detail/tables/matrix_tables.hpp>

#include <mpi.h>

#include <cstddef>
#include <functional>

namespace distarray::detail {

class MatrixTransformLogic {
 public:
  /// Collective over `comm`: LayoutError or ShapeMismatch on every rank for
  /// bad matrices or windows.  `encode`: the messages carry headers (the
  /// encoded engine), from which receivers place them.
  MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                       Index<2> extent, MatrixOp op, MPI_Comm comm, bool encode = false);

  /// The communicator the exchange runs on (the caller's, duplicated).
  MPI_Comm comm() const { return comms_.comm(); }
  const MatrixTables& tables() const { return tables_; }
  MatrixOp op() const { return op_; }
  /// Collective, before an execution of `pairs` matrix pairs starts anything:
  /// a plan's agreement (PlanCommunicators::agree_to_start).
  void agree_to_start(std::size_t pairs, const std::function<void()>& checks) const {
    comms_.agree_to_start(pairs, "the number of matrix pairs to move", checks);
  }

 private:
  PlanCommunicators comms_;
  MatrixOp op_;
  MatrixTables tables_;
};

}  // namespace distarray::detail
