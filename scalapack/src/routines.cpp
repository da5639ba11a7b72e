// The prefixed ScaLAPACK routines (distarray/scalapack.h): each gathers and
// checks its operands over the processes of its BLACS context, takes its
// plan from the cache (or builds it) and executes it.  Nothing escapes to a
// Fortran caller: a bad argument is reported as ScaLAPACK reports it.

#include <distarray/scalapack.h>
#include <distarray/core/detail/collective.hpp>

#include "blacs_context.hpp"
#include "operands.hpp"
#include "plan_cache.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

namespace distarray::scalapack {

namespace {

thread_local int last_error = 0;

/// ScaLAPACK programs do not start Kokkos: the first call does (with the
/// cache cleared before Kokkos ends, at exit or at the program's own finalize).
void ensure_kokkos() {
  static bool hooked = false;
  if (hooked) return;
  hooked = true;
  if (!Kokkos::is_initialized()) {
    Kokkos::initialize();
    std::atexit([] { Kokkos::finalize(); });
  }
  Kokkos::push_finalize_hook([] { plan_cache().clear(); });
}

/// With DISTARRAY_SCALAPACK_VERBOSE set, the first call of each routine
/// says on the context's first process that distarray serves it.
void announce(const char* routine, MPI_Comm comm) {
  static std::set<std::string> announced;
  if (!std::getenv("DISTARRAY_SCALAPACK_VERBOSE") || !announced.insert(routine).second) return;
  if (detail::rank_of(comm) == 0) std::fprintf(stderr, "distarray: %s served by distarray\n", routine);
}

template <class T>
constexpr int type_code() {
  if constexpr (std::is_same_v<T, float>) return 0;
  if constexpr (std::is_same_v<T, double>) return 1;
  if constexpr (std::is_same_v<T, Kokkos::complex<float>>) return 2;
  if constexpr (std::is_same_v<T, Kokkos::complex<double>>) return 3;
  return 4;
}

/// One routine call: B = alpha*op(A) + beta*B over the processes of `ctxt`.
/// A call that neither scales nor conjugates (every p?gemr2d, a p?tran or
/// p?geadd with alpha = 1, beta = 0) is a copy, which every engine may move.
template <class T>
void run(const char* routine, const CallArguments& call, int ctxt, int ctxt_argument, MatrixOp op, T alpha,
         const T* a, T beta, T* b) {
  const MatrixExecutions executions = executions_for(alpha, beta, op);
  last_error = 0;
  try {
    ensure_kokkos();
    const GridPlace place = grid_place(ctxt);
    if (!place.inside())
      throw ArgumentError(ctxt_argument, "this process is not in the call's BLACS context");
    const MPI_Comm comm = context_comm(ctxt, place);
    announce(routine, comm);
    const Operands o = gather_operands(call, comm);
    if (call.m == 0 || call.n == 0) return;
    auto& plan = plan_cache().get<T>(plan_key(comm, type_code<T>(), op, executions, o), [&] {
      return std::make_unique<MatrixTransform<T, Kokkos::HostSpace>>(o.a, o.a_at, o.b, o.b_at, o.extent, op,
                                                                     comm, executions);
    });
    // ScaLAPACK gives every process the same scalar arguments, and the call
    // is blocking: the transform need not agree on them again.
    plan.start(alpha, a, beta, b, detail::AgreedStart{}).wait();
  } catch (const ArgumentError& e) {
    last_error = e.argument();
    std::fprintf(stderr, "distarray: On entry to %s parameter number %d had an illegal value: %s\n", routine,
                 e.argument(), e.what());
  } catch (const std::exception& e) {
    last_error = -1;
    std::fprintf(stderr, "distarray: %s failed: %s\n", routine, e.what());
  }
}

CallArguments arguments(int m, int n, int ia, int ja, const int* desca, int ib, int jb, const int* descb,
                        bool transpose, CallArguments::Positions at) {
  CallArguments c;
  c.m = m, c.n = n, c.ia = ia, c.ja = ja, c.ib = ib, c.jb = jb, c.desca = desca, c.descb = descb;
  c.transpose = transpose;
  c.at = at;
  return c;
}

/// The descriptor this process passed for a matrix whose grid it is outside may be anything but CTXT_ = -1.
const int* known_descriptor(const int* desc) { return desc && desc[1] >= 0 ? desc : nullptr; }

template <class T, class S>
void gemr2d(const char* routine, const int* m, const int* n, const S* a, const int* ia, const int* ja,
            const int* desca, S* b, const int* ib, const int* jb, const int* descb, const int* ictxt) {
  const auto call = arguments(*m, *n, *ia, *ja, known_descriptor(desca), *ib, *jb, known_descriptor(descb),
                              false, {1, 2, 4, 5, 6, 8, 9, 10});
  run<T>(routine, call, *ictxt, 11, MatrixOp::none, T(1), reinterpret_cast<const T*>(a), T(0),
         reinterpret_cast<T*>(b));
}

template <class T, class S>
void tran(const char* routine, MatrixOp op, const int* m, const int* n, const S* alpha, const S* a,
          const int* ia, const int* ja, const int* desca, const S* beta, S* c, const int* ic, const int* jc,
          const int* descc) {
  const auto call = arguments(*m, *n, *ia, *ja, desca, *ic, *jc, descc, true, {1, 2, 5, 6, 7, 10, 11, 12});
  run<T>(routine, call, desca[1], 7, op, *reinterpret_cast<const T*>(alpha), reinterpret_cast<const T*>(a),
         *reinterpret_cast<const T*>(beta), reinterpret_cast<T*>(c));
}

template <class T, class S>
void geadd(const char* routine, const char* trans, const int* m, const int* n, const S* alpha, const S* a,
           const int* ia, const int* ja, const int* desca, const S* beta, S* c, const int* ic, const int* jc,
           const int* descc) {
  const char t = char(*trans & ~0x20);  // upper case
  const MatrixOp op = t == 'T'   ? MatrixOp::transpose
                      : t == 'C' ? MatrixOp::conjugate_transpose
                                 : MatrixOp::none;
  if (t != 'N' && t != 'T' && t != 'C') {
    last_error = 1;
    std::fprintf(stderr, "distarray: On entry to %s parameter number 1 had an illegal value: TRANS is '%c'\n",
                 routine, *trans);
    return;
  }
  const auto call =
      arguments(*m, *n, *ia, *ja, desca, *ic, *jc, descc, op != MatrixOp::none, {2, 3, 6, 7, 8, 11, 12, 13});
  run<T>(routine, call, desca[1], 8, op, *reinterpret_cast<const T*>(alpha), reinterpret_cast<const T*>(a),
         *reinterpret_cast<const T*>(beta), reinterpret_cast<T*>(c));
}

using C = Kokkos::complex<float>;
using Z = Kokkos::complex<double>;

}  // namespace

}  // namespace distarray::scalapack

using namespace distarray::scalapack;
using distarray::MatrixOp;

extern "C" {

// One definition per routine, its element type S as the header spells it and T as the kernels compute in.
#define DISTARRAY_GEMR2D_DEF(p, S, T, NAME)                                                          \
  void distarray_##p##gemr2d(const int* m, const int* n, const S* a, const int* ia, const int* ja,   \
                             const int* desca, S* b, const int* ib, const int* jb, const int* descb, \
                             const int* ictxt) {                                                     \
    gemr2d<T>(NAME, m, n, a, ia, ja, desca, b, ib, jb, descb, ictxt);                                \
  }
DISTARRAY_GEMR2D_DEF(ps, float, float, "PSGEMR2D")
DISTARRAY_GEMR2D_DEF(pd, double, double, "PDGEMR2D")
DISTARRAY_GEMR2D_DEF(pc, float, C, "PCGEMR2D")
DISTARRAY_GEMR2D_DEF(pz, double, Z, "PZGEMR2D")
DISTARRAY_GEMR2D_DEF(pi, int, int, "PIGEMR2D")

#define DISTARRAY_TRAN_DEF(name, S, T, NAME, OP)                                                            \
  void distarray_##name(const int* m, const int* n, const S* alpha, const S* a, const int* ia,              \
                        const int* ja, const int* desca, const S* beta, S* c, const int* ic, const int* jc, \
                        const int* descc) {                                                                 \
    tran<T>(NAME, OP, m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);                               \
  }
DISTARRAY_TRAN_DEF(pstran, float, float, "PSTRAN", MatrixOp::transpose)
DISTARRAY_TRAN_DEF(pdtran, double, double, "PDTRAN", MatrixOp::transpose)
DISTARRAY_TRAN_DEF(pctranu, float, C, "PCTRANU", MatrixOp::transpose)
DISTARRAY_TRAN_DEF(pztranu, double, Z, "PZTRANU", MatrixOp::transpose)
DISTARRAY_TRAN_DEF(pctranc, float, C, "PCTRANC", MatrixOp::conjugate_transpose)
DISTARRAY_TRAN_DEF(pztranc, double, Z, "PZTRANC", MatrixOp::conjugate_transpose)

#define DISTARRAY_GEADD_DEF(p, S, T, NAME)                                                             \
  void distarray_##p##geadd(const char* trans, const int* m, const int* n, const S* alpha, const S* a, \
                            const int* ia, const int* ja, const int* desca, const S* beta, S* c,       \
                            const int* ic, const int* jc, const int* descc) {                          \
    geadd<T>(NAME, trans, m, n, alpha, a, ia, ja, desca, beta, c, ic, jc, descc);                      \
  }
DISTARRAY_GEADD_DEF(ps, float, float, "PSGEADD")
DISTARRAY_GEADD_DEF(pd, double, double, "PDGEADD")
DISTARRAY_GEADD_DEF(pc, float, C, "PCGEADD")
DISTARRAY_GEADD_DEF(pz, double, Z, "PZGEADD")

void distarray_scalapack_clear_cache(void) { plan_cache().clear(); }
int distarray_scalapack_cached_plans(void) { return plan_cache().size(); }
int distarray_scalapack_last_error(void) { return last_error; }
}
