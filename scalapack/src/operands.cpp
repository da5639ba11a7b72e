#include "operands.hpp"

#include "blacs_context.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/scalapack/descriptor.hpp>

#include <algorithm>
#include <array>
#include <vector>

namespace distarray::scalapack {

namespace {

/// What one process knows of one matrix: inside?, its grid and place, its descriptor.
struct Known {
  int inside, rows, cols, row, col;
  int desc[DLEN_];
};
constexpr int known_ints = 5 + DLEN_;

Known known(const int* desc) {
  const GridPlace g = grid_place(desc ? desc[CTXT_] : -1);
  Known k{g.inside() ? 1 : 0, g.rows, g.cols, g.row, g.col, {}};
  if (g.inside()) std::copy(desc, desc + DLEN_, k.desc);
  return k;
}

[[noreturn]] void bad(int argument, const std::string& why) { throw ArgumentError(argument, why); }

/// The matrix all processes know from what each knows of it (`all[r]`: rank r's).
BlockCyclicMatrix matrix_from(const std::vector<Known>& all, int argument, int rank) {
  const auto first = std::find_if(all.begin(), all.end(), [](const Known& k) { return k.inside; });
  if (first == all.end()) bad(argument, "no process of the call is in the matrix's grid (CTXT_)");
  const Known& f = *first;
  std::vector<int> ranks(std::size_t(f.rows) * std::size_t(f.cols), -1);
  for (std::size_t r = 0; r < all.size(); ++r) {
    const Known& k = all[r];
    if (!k.inside) continue;
    if (k.rows != f.rows || k.cols != f.cols) bad(argument, "the grid's processes disagree on its shape");
    for (int e = 0; e < LLD_; ++e)
      if (e != CTXT_ && k.desc[e] != f.desc[e])
        bad(argument, std::string("the grid's processes disagree on ") + entry_name(e));
    ranks[std::size_t(k.row * f.cols + k.col)] = int(r);
  }
  if (std::count(ranks.begin(), ranks.end(), -1) != 0)
    bad(argument, "some processes of the matrix's grid are not in the call's context");
  if (const auto e = bad_entry(f.desc, f.rows, f.cols)) bad(argument, entry_text(f.desc, *e));
  const CyclicAxis rows_axis(f.desc[M_], f.desc[MB_], f.rows, f.desc[RSRC_]);
  int lld = 1;
  for (std::size_t r = 0; r < all.size(); ++r) {  // every process's LLD_, so that all agree
    if (!all[r].inside) continue;
    const index_t rows = rows_axis.local_extent(all[r].row);
    if (!lld_fits(all[r].desc[LLD_], rows))
      bad(argument, entry_text(all[r].desc, LLD_) + " on rank " + std::to_string(r) + ", below its " +
                        std::to_string(rows) + " local rows");
    if (int(r) == rank) lld = all[r].desc[LLD_];
  }
  return descriptor_matrix(f.desc, f.rows, f.cols, std::move(ranks), lld);
}

/// The 0-based position of a window of `extent` at 1-based (i, j) of m.
Index<2> window(const BlockCyclicMatrix& m, int i, int j, const Index<2>& extent, int i_argument,
                int j_argument) {
  if (i < 1 || i - 1 + extent[0] > m.axes[0].extent())
    bad(i_argument, "rows " + std::to_string(i) + ".." + std::to_string(i - 1 + extent[0]) + " leave the " +
                        std::to_string(m.axes[0].extent()) + " rows of the matrix");
  if (j < 1 || j - 1 + extent[1] > m.axes[1].extent())
    bad(j_argument, "columns " + std::to_string(j) + ".." + std::to_string(j - 1 + extent[1]) +
                        " leave the " + std::to_string(m.axes[1].extent()) + " columns of the matrix");
  return {i - 1, j - 1};
}

}  // namespace

Operands gather_operands(const CallArguments& call, MPI_Comm comm) {
  const int rank = detail::rank_of(comm), size = detail::ranks_of(comm);
  const std::array<Known, 2> mine{known(call.desca), known(call.descb)};
  std::vector<std::array<Known, 2>> all(static_cast<std::size_t>(size));
  DISTARRAY_MPI_CHECK(
      MPI_Allgather(mine.data(), 2 * known_ints, MPI_INT, all.data(), 2 * known_ints, MPI_INT, comm));
  if (call.m < 0) bad(call.at.m, "M is " + std::to_string(call.m));
  if (call.n < 0) bad(call.at.n, "N is " + std::to_string(call.n));
  std::vector<Known> of_a, of_b;
  for (const auto& k : all) of_a.push_back(k[0]), of_b.push_back(k[1]);
  Operands o;
  o.a = matrix_from(of_a, call.at.desca, rank);
  o.b = matrix_from(of_b, call.at.descb, rank);
  o.extent = {call.m, call.n};
  const Index<2> a_extent = call.transpose ? Index<2>{call.n, call.m} : o.extent;
  o.a_at = window(o.a, call.ia, call.ja, a_extent, call.at.ia, call.at.ja);
  o.b_at = window(o.b, call.ib, call.jb, o.extent, call.at.ib, call.at.jb);
  return o;
}

}  // namespace distarray::scalapack
