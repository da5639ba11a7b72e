#pragma once
// The ScaLAPACK routines' table: distarray's drop-in against ScaLAPACK's own
// p?gemr2d and p?tran(u) and against COSTA's wrappers of them, each called
// as a ScaLAPACK program calls it (descriptors and a BLACS context, every
// call from scratch as far as the caller knows).  p?gemr2d runs on the
// comparison's block-cyclic cases; p?tran transposes a square matrix on one
// grid (alpha = 1, beta = 0), keeping or changing the block size.

#include "cases.hpp"
#include "elements.hpp"
#include "measure.hpp"
#include "report.hpp"
#include "scalapack.hpp"

#include <distarray/core.hpp>

#include <string>
#include <utility>
#include <vector>

namespace compare {

struct RoutineCase {
  std::string routine, name, from, to;
  bool transposes() const { return routine == "p?tran"; }
};

inline std::vector<RoutineCase> routine_cases(int ranks) {
  std::vector<RoutineCase> all;
  for (const Case& c : cases_for(ranks))
    if (c.kind == CaseKind::block_cyclic) all.push_back({"p?gemr2d", c.name, c.from, c.to});
  const std::string b64 = "cyclic(64),cyclic(64) on ", b16 = "cyclic(16),cyclic(16) on ";
  if (ranks >= 4) {
    all.push_back({"p?tran", "b64 on 2x2", b64 + "2x2", b64 + "2x2"});
    all.push_back({"p?tran", "b64->b16 on 2x2", b64 + "2x2", b16 + "2x2"});
  }
  if (ranks >= 2) {
    all.push_back({"p?tran", "b64 on 1x2", b64 + "1x2", b64 + "1x2"});
    all.push_back({"p?tran", "b64 on 2x1", b64 + "2x1", b64 + "2x1"});
  }
  return all;
}

/// One routine case at n x n: the drop-in (row.base) and the others, each
/// checked, then timed after five untimed calls (the drop-in plans on its
/// first call and its automatic engine settles on the next few).
template <class T>
Row run_routine(const RoutineCase& c, distarray::index_t n, int reps, MPI_Comm world) {
  using Left = Kokkos::LayoutLeft;
  const distarray::Index<2> shape{n, n};
  const auto from = distarray::Layout<2>::parse(c.from, shape);
  const auto to = distarray::Layout<2>::parse(c.to, shape);
  Row row{c.routine + " " + c.name, from.to_string(), to.to_string(), type_name<T>()};
  row.base = "drop-in";
  MPI_Comm_size(world, &row.ranks);
  row.n = n;
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  distarray::DistArray<T, 2, Host, Left> a(from, world), b(to, world);
  distarray::support::fill_pattern(a);
  const auto wrong = [&] { return wrong_elements(b, world, c.transposes()); };
  T* in = a.local().data();
  T* out = b.local().data();
  // COSTA's pdgemr2d reads the BLACS context of a descriptor whose context is
  // -1 (a rank outside that grid, as pdgemr2d takes it) and segfaults.
  const bool costa_crashes =
      !c.transposes() && (from.grid().size() != row.ranks || to.grid().size() != row.ranks);
  for (const auto& [who, method] : {std::pair{Implementation::distarray, "drop-in"},
                                    {Implementation::scalapack, "scalapack"},
                                    {Implementation::costa, "costa-wrapper"}}) {
    if (who == Implementation::costa) {
      row.applies.insert(method);
#ifndef DISTARRAY_HAVE_COSTA
      row.not_built.insert(method);
      continue;
#endif
      if (costa_crashes) {
        row.crashes.insert(method);
        continue;
      }
    }
    if (c.transposes()) {
      Pxtran<T> tran(who, from, to, rank);
      measure(
          row, method, b, reps, [&] { tran(in, out); }, wrong, 5);
    } else {
      Pxgemr2d<T> gemr2d(who, from, to, rank, row.ranks);
      measure(
          row, method, b, reps, [&] { gemr2d(in, out); }, wrong, 5);
    }
  }
  return row;
}

}  // namespace compare
