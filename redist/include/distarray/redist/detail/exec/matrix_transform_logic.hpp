#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/exec/matrix_transform_logic.hpp is internal: include <distarray/redist.hpp>"
#endif
// The untyped half of a MatrixTransform (matrix_transform.hpp), as PlanLogic
// is a Plan's: the checked inputs and this rank's copy tables
// (redist/src/matrix/matrix_transform.cpp); a copyable value, which owns no
// MPI object (the executor owns the communicator).

#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/tables/matrix_tables.hpp>
#include <distarray/redist/plan_options.hpp>

#include <mpi.h>

namespace distarray::detail {

class MatrixTransformLogic {
 public:
  /// Collective over `comm` (the transform's communicator): LayoutError or
  /// ShapeMismatch on every rank for bad matrices or windows, UsageError
  /// where ranks pass different arguments (only the leading dimensions
  /// may differ).  `copies_only`: MatrixExecutions::copies_only.  On the
  /// encoded engine (`options`) the messages carry headers, from which
  /// receivers place them.
  MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                       Index<2> extent, MatrixOp op, MPI_Comm comm, bool copies_only = false,
                       const PlanOptions& options = {});

  const MatrixTables& tables() const { return tables_; }
  MatrixOp op() const { return op_; }

 private:
  MatrixOp op_;
  MatrixTables tables_;
};

}  // namespace distarray::detail
