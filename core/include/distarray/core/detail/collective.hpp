#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/core/detail/collective.hpp is internal: include <distarray/core.hpp>"
#endif
// Errors agreed across a communicator.  A check that can fail on some ranks
// only (an allocation, a file, a schedule a rank's dimension needs) must not
// throw there alone: the other ranks would go on into the next collective and
// wait forever.  agreed(comm, f) runs f on every rank, then one reduction
// tells every rank whether any failed; if one did, every rank throws the same
// typed error, with the message of the lowest failing rank.
//
//   auto tables = detail::agreed(comm, [&] { return build_tables(); });
//   MPI_Alltoall(...);   // reached by all ranks or by none

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <mpi.h>

#include <exception>
#include <optional>
#include <string>
#include <type_traits>

namespace distarray::detail {

/// Collective: rethrows on every rank the error `local` (null where this rank
/// succeeded) of the lowest rank that has one; returns where none has.
void agree_on_error(MPI_Comm comm, std::exception_ptr local);
/// The same, and where no rank has an error, a UsageError on every rank
/// unless every rank passed the same `value` (`what` names it in the message):
/// for counts that decide how many collectives follow.  `any`, where given,
/// becomes whether it is true on any rank.  One reduction.
void agree_on_error(MPI_Comm comm, std::exception_ptr local, long value, const std::string& what,
                    bool* any = nullptr);

/// What `checks` threw, if anything.
template <class F>
std::exception_ptr refusal_of(F&& checks) {
  try {
    checks();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

/// agree_on_error in two halves, for a reduction made elsewhere (an
/// engine's own synchronisation over the same ranks, redist's shared
/// engine): this rank's part, then `conclude` once `values` hold every
/// rank's maximum (`reduce_and_conclude` where nothing else is reduced).
class Agreement {
 public:
  Agreement(MPI_Comm comm, std::exception_ptr local, long value, std::string what, bool any);
  /// What each rank contributes; reduced by MPI_MAX over MPI_LONG, in place.
  long values[4];
  /// Collective over the agreement's communicator (an error's message is
  /// broadcast on it): throws every rank's same error where any rank has
  /// one, or the UsageError where the values differ.
  void conclude();
  /// `values` reduced over `comm` (the agreement's ranks, or a
  /// communicator of the same ranks), then conclude.
  void reduce_and_conclude(MPI_Comm comm);
  /// After conclude: whether `any` was true on any rank.
  bool any() const { return values[3] != 0; }

 private:
  MPI_Comm comm_;
  std::exception_ptr local_;
  std::string what_;
};

/// Collective: f() on every rank; its result where all succeeded, else the
/// same typed error on every rank.  f must not call collectives on `comm`.
template <class F>
auto agreed(MPI_Comm comm, F&& f) -> std::invoke_result_t<F&> {
  using R = std::invoke_result_t<F&>;
  std::exception_ptr error;
  if constexpr (std::is_void_v<R>) {
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
    agree_on_error(comm, error);
  } else {
    std::optional<R> result;
    try {
      result.emplace(f());
    } catch (...) {
      error = std::current_exception();
    }
    agree_on_error(comm, error);
    return std::move(*result);
  }
}

/// Collective: throws `E(message)` on every rank if `failed` on any rank
/// (the lowest such rank's message); for checks that do not throw by themselves.
template <class E = Error>
void agree(MPI_Comm comm, bool failed, const std::string& message) {
  agreed(comm, [&] {
    if (failed) throw E(message);
  });
}

/// This rank's number in `comm`, and the number of ranks.
inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  return rank;
}
inline int ranks_of(MPI_Comm comm) {
  int ranks = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_size(comm, &ranks));
  return ranks;
}

/// `text` cut to at most `limit` bytes without splitting a UTF-8 character.
std::string utf8_prefix(const std::string& text, std::size_t limit);

}  // namespace distarray::detail
