#pragma once
// MatrixTransform: sub(B) = alpha*op(sub(A)) + beta*sub(B) between two
// block-cyclic matrices (block_cyclic_matrix.hpp), op one of none,
// transpose, conjugate transpose: ScaLAPACK's p?gemr2d, p?tran and p?geadd
// as a plan, built once and executed many times.
//
//   MatrixTransform<double> t(a, {ia, ja}, b, {ib, jb}, {m, n}, MatrixOp::transpose, comm);
//   t.execute(alpha, a_local, beta, b_local);            // collective, repeatable
//   auto request = t.start(alpha, a_local, beta, b_local); ... request.wait();  // non-blocking
//   t.execute(alpha, std::span(as), beta, std::span(bs));  // k pairs, one exchange
//
// sub(B) is the m x n window of B at (ib, jb) (0-based) and sub(A) the
// window of A at (ia, ja) that op maps onto it.  The scaling, the
// conjugation and the transposition happen inside the pack and unpack
// kernels of one exchange step (element_op.hpp): no extra pass.  beta = 0
// never reads B; alpha = 0 never reads A (and sends nothing); alpha = 1,
// beta = 0, op none is a redistribution.  A transform runs on the machinery
// of a Plan (plan.hpp): one Step, run by an Executor (detail/exec/executor.hpp),
// completed through a Request.  Every exchange engine moves it (on
// `encoded`, each message's header holds the receiver's runs, as a Plan's
// encoded steps do); transforms that scale go by alltoallv, p2p or encoded.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#endif

#include <distarray/core/dist_array.hpp>
#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/exec/executor.hpp>
#include <distarray/redist/detail/exec/matrix_transform_logic.hpp>
#include <distarray/redist/request.hpp>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_MATRIX_TRANSFORM
#endif

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace distarray {

/// What a MatrixTransform's executions may do.
enum class MatrixExecutions {
  any,         ///< any alpha and beta: every side is packed (the scaling runs in the kernels)
  copies_only  ///< alpha = 1, beta = 0 only (p?gemr2d): the exchange may move sides in place by datatypes
};

/// The executions a transform with these scalars needs: copies only where
/// it neither scales nor conjugates, so that every engine may move it.
template <class T>
MatrixExecutions executions_for(T alpha, T beta, MatrixOp op) {
  const bool conjugates = op == MatrixOp::conjugate_transpose && detail::is_complex<T>::value;
  return alpha == T(1) && beta == T(0) && !conjugates ? MatrixExecutions::copies_only : MatrixExecutions::any;
}

namespace detail {
/// Passed to MatrixTransform::start by a caller that makes every rank start
/// alike itself (one pair, the same scalars, nothing in flight): the
/// ScaLAPACK routines, whose contract gives every process the same scalar
/// arguments and which call it blocking.  start then skips its agreement,
/// one reduction per call.
struct AgreedStart {};
}  // namespace detail

/// Local arrays live in MemorySpace (as a Plan's and a DistArray's, by
/// default the default execution space's memory; ScaLAPACK's are HostSpace).
template <class T, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class MatrixTransform {
 public:
  using memory_space = MemorySpace;
  using execution_space = typename MemorySpace::execution_space;

  /// Collective over `comm`, whose ranks the matrices' rank maps number.
  MatrixTransform(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b, Index<2> b_at,
                  Index<2> extent, MatrixOp op, MPI_Comm comm,
                  MatrixExecutions executions = MatrixExecutions::any, PlanOptions options = {})
      : executions_(executions) {
    detail::PlanCommunicators comms(comm);
    logic_ = std::make_unique<detail::MatrixTransformLogic>(
        a, a_at, b, b_at, extent, op, comms.comm(), executions == MatrixExecutions::copies_only, options);
    destination_ = detail::Packer<T, MemorySpace>(logic_->tables().recv);
    const bool conjugates = op == MatrixOp::conjugate_transpose && detail::is_complex<T>::value;
    if (executions == MatrixExecutions::copies_only && conjugates)
      throw UsageError("MatrixTransform: a conjugate transpose is not a plain copy");
    // Datatypes move sides in place and cannot scale: a transform for any
    // alpha and beta packs.  Asked for by name, that is an error, not a silent swap.
    if (executions == MatrixExecutions::any && options.exchange == ExchangeEngine::datatype)
      throw UsageError(
          "MatrixTransform: the datatype engine moves sides in place and cannot scale; build the transform "
          "with MatrixExecutions::copies_only, or choose alltoallv or p2p");
    if (executions == MatrixExecutions::any && options.exchange == ExchangeEngine::automatic)
      options.exchange = ExchangeEngine::alltoallv;
    // Encoded messages are placed by their headers: the step gets no receive
    // table (B's is kept for B = beta*B, which moves nothing).
    const detail::MatrixTables& tables = logic_->tables();
    std::vector<detail::TypedStep<T, MemorySpace>> steps;
    steps.push_back(detail::make_step<T, MemorySpace>(
        comms.comm(), 0, tables.send, tables.encoded.decode ? detail::CopyTable{} : tables.recv, options,
        tables.encoded));
    executor_ = detail::Executor<T, MemorySpace>(std::move(comms), std::move(steps), PlanReport{}, "");
  }
  MatrixTransform(const MatrixTransform&) = delete;
  MatrixTransform& operator=(const MatrixTransform&) = delete;
  /// A moved-from transform may only be destroyed or assigned to.  An
  /// execution in flight is completed first (by the executor, which owns
  /// the communicator and the step).
  MatrixTransform(MatrixTransform&&) noexcept = default;
  MatrixTransform& operator=(MatrixTransform&&) noexcept = default;
  ~MatrixTransform() = default;

  /// B = alpha*op(A) + beta*B on this rank's local arrays `a` and `b` (with
  /// their leading dimensions; null where this rank holds none).  Collective:
  /// start(...).wait().
  void execute(T alpha, const T* a, T beta, T* b) { start(alpha, a, beta, b).wait(); }
  /// B = op(A).
  void execute(const T* a, T* b) { execute(T(1), a, T(0), b); }
  /// b[j] = alpha*op(a[j]) + beta*b[j] for k pairs in one exchange.
  void execute(T alpha, std::span<const T* const> a, T beta, std::span<T* const> b) {
    start(alpha, a, beta, b).wait();
  }

  /// Starts B = alpha*op(A) + beta*B and returns at once; the request
  /// completes it (request.hpp: until then `a` must not be written nor `b`
  /// touched).  Collective; UsageError while an execution is in flight.
  /// Kernels run on `exec`.
  Request start(T alpha, const T* a, T beta, T* b, const execution_space& exec = execution_space()) {
    return start(alpha, std::span<const T* const>(&a, 1), beta, std::span<T* const>(&b, 1), exec);
  }
  /// The same for k pairs with the same scalars, moved together: one
  /// exchange, one message per peer holding all k pieces.  UsageError on
  /// every rank when the counts differ (here or between ranks).
  Request start(T alpha, std::span<const T* const> a, T beta, std::span<T* const> b,
                const execution_space& exec = execution_space()) {
    // alpha = 0 moves nothing (begin: B = beta*B on each rank): agreed as
    // zero pairs, so that a rank passing alpha = 0 where others do not is
    // refused on every rank rather than leaving them waiting for its
    // messages.  Not carried by the exchange (Executor::agree_to_start).
    const std::size_t moved = alpha == T(0) ? 0 : a.size();
    executor_.agree_to_start(
        moved, "the number of matrix pairs to move (none where alpha = 0)",
        [&] { check_start(alpha, a.size(), beta, b.size()); }, false);
    return begin(alpha, a, beta, b, exec);
  }
  /// start(alpha, a, beta, b, exec) without its agreement across ranks, for
  /// a caller that guarantees it (detail::AgreedStart); refusals are this rank's.
  Request start(T alpha, const T* a, T beta, T* b, detail::AgreedStart,
                const execution_space& exec = execution_space()) {
    check_start(alpha, 1, beta, 1);
    return begin(alpha, std::span<const T* const>(&a, 1), beta, std::span<T* const>(&b, 1), exec);
  }

  /// Messages, bytes, engine and times of this rank.
  const PlanReport& report() const { return executor_.report(); }
  MPI_Comm comm() const { return executor_.comms().comm(); }

 private:
  /// UsageError for a start this transform refuses.
  void check_start(T alpha, std::size_t sources, T beta, std::size_t destinations) const {
    if (executor_.in_flight())
      throw UsageError(
          "MatrixTransform::start: the previous execution is in flight; wait() for its request first");
    if (sources != destinations)
      throw UsageError("MatrixTransform::start: " + std::to_string(sources) + " matrices A but " +
                       std::to_string(destinations) + " matrices B");
    if (executions_ == MatrixExecutions::copies_only && !(alpha == T(1) && beta == T(0)))
      throw UsageError("MatrixTransform: alpha must be 1 and beta 0 in a transform built for copies only");
  }

  /// Starts an execution every rank has agreed to.
  Request begin(T alpha, std::span<const T* const> a, T beta, std::span<T* const> b,
                const execution_space& exec) {
    if (a.empty()) return Request();
    if (alpha == T(0)) {  // B = beta*B: A is neither read nor sent
      if (beta != T(1))
        for (T* x : b) destination_.scale_all(x, beta, exec);
      exec.fence();
      return Request();
    }
    const detail::ScaledCopy<T> op(alpha, beta, logic_->op() == MatrixOp::conjugate_transpose);
    return executor_.start(std::vector<const void*>(a.begin(), a.end()),
                           {std::vector<void*>(b.begin(), b.end())}, exec,
                           op.plain() ? std::nullopt : std::optional(op), [] {});
  }

  std::unique_ptr<detail::MatrixTransformLogic> logic_;
  MatrixExecutions executions_;
  detail::Packer<T, MemorySpace> destination_;  // the receive side, for B = beta*B
  detail::Executor<T, MemorySpace> executor_;   // the one step and the execution in flight
};

/// The matrix of a 2-D DistArray (its layout, storage order and local extents).
template <class T, class Space, class Order>
BlockCyclicMatrix matrix_of(const DistArray<T, 2, Space, Order>& x) {
  constexpr StorageOrder order = storage_order_of<Order>();
  const index_t inner = x.local_extents()[order == StorageOrder::column_major ? 0 : 1];
  return matrix_of(x.layout(), order, std::max<index_t>(inner, 1));
}

/// One-off: sub(B) = alpha*op(sub(A)) + beta*sub(B) for 2-D DistArrays on
/// the same ranks; sub(B) is `extent` at `b_at`, sub(A) at `a_at`.  One
/// that does not scale (alpha = 1, beta = 0, no conjugation) is a copy:
/// every engine moves it, datatypes in place included.
template <class T, class Space, class OrderA, class OrderB>
void transform(T alpha, MatrixOp op, const DistArray<T, 2, Space, OrderA>& a, Index<2> a_at, T beta,
               DistArray<T, 2, Space, OrderB>& b, Index<2> b_at, Index<2> extent,
               const PlanOptions& options = {}) {
  int same = MPI_UNEQUAL;
  DISTARRAY_MPI_CHECK(MPI_Comm_compare(a.comm(), b.comm(), &same));
  if (same != MPI_CONGRUENT && same != MPI_IDENT)
    throw ShapeMismatch("transform: the two arrays live on different communicators");
  MatrixTransform<T, Space> t(matrix_of(a), a_at, matrix_of(b), b_at, extent, op, a.comm(),
                              executions_for(alpha, beta, op), options);
  t.execute(alpha, a.local().data(), beta, b.local().data());
}

}  // namespace distarray
