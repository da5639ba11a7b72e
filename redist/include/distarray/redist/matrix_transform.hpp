#pragma once
// MatrixTransform: sub(B) = alpha*op(sub(A)) + beta*sub(B) between two
// block-cyclic matrices (block_cyclic_matrix.hpp), op one of none,
// transpose, conjugate transpose: ScaLAPACK's p?gemr2d, p?tran and p?geadd
// as a plan, built once and executed many times.
//
//   MatrixTransform<double> t(a, {ia, ja}, b, {ib, jb}, {m, n}, MatrixOp::transpose, comm);
//   t.execute(alpha, a_local, beta, b_local);        // collective, repeatable
//
// sub(B) is the m x n window of B at (ib, jb) (0-based) and sub(A) the
// window of A at (ia, ja) that op maps onto it.  The scaling, the
// conjugation and the transposition happen inside the pack and unpack
// kernels of one exchange step (element_op.hpp): no extra pass.  beta = 0
// never reads B; alpha = 0 never reads A (and sends nothing); alpha = 1,
// beta = 0, op none is a redistribution.  Every exchange engine but
// `encoded` moves it (UsageError on every rank: its receivers place data by
// headers only a Plan builds); transforms that scale go by alltoallv or p2p.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#endif

#include <distarray/core/dist_array.hpp>
#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/matrix_tables.hpp>
#include <distarray/redist/detail/step.hpp>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#endif

#include <memory>

namespace distarray {

/// What a MatrixTransform's executions may do.
enum class MatrixExecutions {
  any,         ///< any alpha and beta: every side is packed (the scaling runs in the kernels)
  copies_only  ///< alpha = 1, beta = 0 only (p?gemr2d): the exchange may move sides in place by datatypes
};

namespace detail {

/// The untyped half of a MatrixTransform: the checked inputs, the plan's
/// communicator and this rank's copy tables (redist/src/matrix/matrix_transform.cpp).
class MatrixTransformLogic {
 public:
  /// Collective over `comm`: LayoutError or ShapeMismatch on every rank for
  /// bad matrices or windows.
  MatrixTransformLogic(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                       Index<2> extent, MatrixOp op, MPI_Comm comm);
  MatrixTransformLogic(const MatrixTransformLogic&) = delete;
  MatrixTransformLogic& operator=(const MatrixTransformLogic&) = delete;
  ~MatrixTransformLogic();

  MPI_Comm comm() const { return comm_; }
  const MatrixTables& tables() const { return tables_; }
  MatrixOp op() const { return op_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  MatrixOp op_;
  MatrixTables tables_;
};

}  // namespace detail

template <class T, class MemorySpace = Kokkos::HostSpace>
class MatrixTransform {
 public:
  /// Collective over `comm`, whose ranks the matrices' rank maps number.
  MatrixTransform(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                  Index<2> extent, MatrixOp op, MPI_Comm comm,
                  MatrixExecutions executions = MatrixExecutions::any, PlanOptions options = {})
      : logic_(std::make_unique<detail::MatrixTransformLogic>(a, a_at, b, b_at, extent, op, comm)),
        executions_(executions),
        destination_(logic_->tables().recv) {
    const bool conjugates = op == MatrixOp::conjugate_transpose && detail::is_complex<T>::value;
    if (executions == MatrixExecutions::copies_only && conjugates)
      throw UsageError("MatrixTransform: a conjugate transpose is not a plain copy");
    if (options.exchange == ExchangeEngine::encoded)
      throw UsageError(
          "MatrixTransform: the encoded engine places what it receives by message headers, which only a Plan "
          "builds; choose another exchange engine");
    // Datatypes move sides in place and cannot scale: a transform for any
    // alpha and beta packs.  Asked for by name, that is an error, not a silent swap.
    if (executions == MatrixExecutions::any && options.exchange == ExchangeEngine::datatype)
      throw UsageError(
          "MatrixTransform: the datatype engine moves sides in place and cannot scale; build the transform "
          "with MatrixExecutions::copies_only, or choose alltoallv or p2p");
    if (executions == MatrixExecutions::any && options.exchange == ExchangeEngine::automatic)
      options.exchange = ExchangeEngine::alltoallv;
    step_ = detail::make_step<T, MemorySpace>(logic_->comm(), 0, logic_->tables().send, logic_->tables().recv,
                                              options);
    report_.exchange = step_->engine();
  }

  /// B = alpha*op(A) + beta*B on this rank's local arrays `a` and `b` (with
  /// their leading dimensions; null where this rank holds none).  Collective.
  void execute(T alpha, const T* a, T beta, T* b) {
    const detail::ScaledCopy<T> op(alpha, beta, logic_->op() == MatrixOp::conjugate_transpose);
    if (executions_ == MatrixExecutions::copies_only && !op.plain())
      throw UsageError("MatrixTransform: alpha must be 1 and beta 0 in a transform built for copies only");
    if (alpha == T(0)) {  // B = beta*B: A is neither read nor sent
      if (beta != T(1)) destination_.scale_all(b, beta);
      Kokkos::fence();
      return;
    }
    step_->set_element_op(op.plain() ? nullptr : &op);
    step_->execute(a, b, report_);
    ++report_.executions;
    report_.exchange = step_->engine();  // an automatic engine settles after a few executions
  }
  /// B = op(A).
  void execute(const T* a, T* b) { execute(T(1), a, T(0), b); }

  /// Messages, bytes, engine and times of this rank.
  const PlanReport& report() const { return report_; }
  MPI_Comm comm() const { return logic_->comm(); }

 private:
  std::unique_ptr<detail::MatrixTransformLogic> logic_;
  MatrixExecutions executions_;
  detail::Packer<T, MemorySpace> destination_;  // the receive side, for B = beta*B
  std::unique_ptr<detail::Step> step_;
  PlanReport report_;
};

/// The matrix of a 2-D DistArray (its layout, storage order and local extents).
template <class T, class Space, class Order>
BlockCyclicMatrix matrix_of(const DistArray<T, 2, Space, Order>& x) {
  constexpr StorageOrder order = storage_order_of<Order>();
  const index_t inner = x.local_extents()[order == StorageOrder::column_major ? 0 : 1];
  return matrix_of(x.layout(), order, std::max<index_t>(inner, 1));
}

/// One-off: sub(B) = alpha*op(sub(A)) + beta*sub(B) for 2-D DistArrays on
/// the same ranks; sub(B) is `extent` at `b_at`, sub(A) at `a_at`.
template <class T, class Space, class OrderA, class OrderB>
void transform(T alpha, MatrixOp op, const DistArray<T, 2, Space, OrderA>& a, Index<2> a_at, T beta,
               DistArray<T, 2, Space, OrderB>& b, Index<2> b_at, Index<2> extent,
               const PlanOptions& options = {}) {
  int same = MPI_UNEQUAL;
  DISTARRAY_MPI_CHECK(MPI_Comm_compare(a.comm(), b.comm(), &same));
  if (same != MPI_CONGRUENT && same != MPI_IDENT)
    throw ShapeMismatch("transform: the two arrays live on different communicators");
  MatrixTransform<T, Space> t(matrix_of(a), a_at, matrix_of(b), b_at, extent, op, a.comm(),
                              MatrixExecutions::any, options);
  t.execute(alpha, a.local().data(), beta, b.local().data());
}

}  // namespace distarray
