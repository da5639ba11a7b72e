// bench/compare: distarray against what its users have, in one run on the
// same ranks: FFTW-MPI's transpose and heFFTe's reshapes (alltoallv and
// point-to-point) for the FFT/ADI transpose; ScaLAPACK's pdgemr2d and COSTA's
// costa::transform for block-cyclic moves; a hand-written MPI_Alltoallw of
// per-peer derived datatypes for every case (indexed, and hvectors of the
// block-cyclic pattern: the column is the faster); and the floor, one bare
// MPI_Alltoallv of the same per-peer bytes from pre-packed buffers.  A second
// table puts distarray's ScaLAPACK drop-in beside ScaLAPACK's own pdgemr2d
// and pdtran and COSTA's wrappers (routines.hpp; --cases p? selects it
// alone).  Every method's result is checked element by element
// before it is timed: a wrong result is reported as wrong, never timed.
// heFFTe and COSTA are optional (scripts/peers.sh builds them); without them
// their columns say "not built".  Times are medians over --reps repetitions
// (after a warm-up) of the slowest rank.
//
//   mpiexec -n 4 build/bench/bench_compare [--sizes 256,1024,4096] [--types double,complex]
//        [--reps 10] [--cases SUBSTRING] [--json FILE] [--engines alltoallv,shared,...]
// --engines times distarray again with each engine forced (columns
// "distarray-<engine>"), beside the default plan's automatic choice; with
// `shared`, also into a node-shared destination array, where the shared
// engine goes in one pass ("distarray-shared-one-pass").
// bench/compare/run.sh runs the whole table at 2 and 4 ranks.

#include "cases.hpp"
#include "costa_transform.hpp"
#include "elements.hpp"
#include "fftw_transpose.hpp"
#include "hand_written.hpp"
#include "heffte_reshape.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "report.hpp"
#include "routines.hpp"
#include "scalapack.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/fftw_mpi.hpp>
#include <distarray/support/median_timing.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using compare::Case;
using compare::CaseKind;
using compare::Row;
using Host = Kokkos::HostSpace;
using Left = Kokkos::LayoutLeft;
using Right = Kokkos::LayoutRight;
const MPI_Comm world = MPI_COMM_WORLD;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(world, &r);
  return r;
}

int world_size() {
  int s = 1;
  MPI_Comm_size(world, &s);
  return s;
}

/// distarray's plan made with `options`: the automatic method and engine
/// settle on the first executions, then the result is checked and the
/// executions timed, into `column` of the row; the default plan's
/// ("distarray") stages and choice too.
template <class T, class SourceOrder, class DestOrder>
void time_distarray(Row& row, const std::string& column, const PlanOptions& options,
                    const DistArray<T, 2, Host, SourceOrder>& a, DistArray<T, 2, Host, DestOrder>& b,
                    int reps) {
  MPI_Barrier(world);  // (ranks that own little would count the others' fill as plan time)
  Plan<T, 2, Host, SourceOrder, DestOrder> plan(a.layout(), b.layout(), world, options);
  // Warm-ups, and the automatic engine's trials (as a peer's planning is, untimed).
  for (int i = 0; i < 2 || (!plan.report().settled && i < 64); ++i) plan.execute(a, b);
  Kokkos::deep_copy(b.local(), T(-1));
  plan.execute(a, b);
  if (const long bad = compare::wrong_elements(b, world))
    throw Error(column + ": " + std::to_string(bad) + " elements are wrong");
  const PlanReport before = plan.report();
  row.seconds[column] = distarray::support::median_slowest_seconds(world, reps, [&] { plan.execute(a, b); });
  if (column != "distarray") return;
  const PlanReport& after = plan.report();
  row.stages[0] = (after.pack_seconds - before.pack_seconds) / reps;
  row.stages[1] = (after.exchange_seconds - before.exchange_seconds) / reps;
  // The message to oneself is copied right after packing: counted with it.
  row.stages[0] += (after.local_seconds - before.local_seconds) / reps;
  row.stages[2] = (after.unpack_seconds - before.unpack_seconds) / reps;
  MPI_Allreduce(MPI_IN_PLACE, row.stages, 3, MPI_DOUBLE, MPI_MAX, world);
  row.choice = after.method + ", " + after.exchange;
  row.plan_seconds = after.plan_seconds;
  MPI_Allreduce(MPI_IN_PLACE, &row.plan_seconds, 1, MPI_DOUBLE, MPI_MAX, world);
}

template <class T, class SourceOrder, class DestOrder>
Row run_case(const Case& c, index_t n, int reps, const std::vector<ExchangeEngine>& engines) {
  const Index<2> shape{n, n};
  const auto from = Layout<2>::parse(c.from, shape);
  const auto to = Layout<2>::parse(c.to, shape);
  Row row{c.name, from.to_string(), to.to_string(), compare::type_name<T>()};
  row.ranks = world_size();
  row.n = n;
  DistArray<T, 2, Host, SourceOrder> a(from, world);
  DistArray<T, 2, Host, DestOrder> b(to, world);
  distarray::support::fill_pattern(a);
  time_distarray(row, "distarray", {}, a, b, reps);
  for (const ExchangeEngine e : engines) {  // --engines: each forced
    PlanOptions forced;
    forced.exchange = e;
    time_distarray(row, "distarray-" + std::string(to_string(e)), forced, a, b, reps);
    if (e == ExchangeEngine::shared) {  // into a node-shared destination: one pass
      DistArray<T, 2, Host, DestOrder> shared_b(to, world, node_shared);
      time_distarray(row, "distarray-shared-one-pass", forced, a, shared_b, reps);
    }
  }

  const auto measure = [&](const std::string& method, auto&& run, auto&& wrong_elements) {
    compare::measure(row, method, b, reps, run, wrong_elements);
  };
  const auto b_wrong = [&] { return compare::wrong_elements(b, world); };
  T* in = a.local().data();
  T* out = b.local().data();
  const auto not_built = [&](std::initializer_list<const char*> methods) {
    for (const char* m : methods) {
      row.applies.insert(m);
      row.not_built.insert(m);
    }
  };

  compare::HandWritten<T, 2> hand(from, storage_order_of<SourceOrder>(), to, storage_order_of<DestOrder>(),
                                  world);
  measure(
      "alltoallw", [&] { hand.alltoallw(in, out); }, b_wrong);
  compare::HandWritten<T, 2> hand_vector(from, storage_order_of<SourceOrder>(), to,
                                         storage_order_of<DestOrder>(), world, compare::TypeStyle::vector);
  measure(
      "alltoallw-vector", [&] { hand_vector.alltoallw(in, out); }, b_wrong);
  row.seconds["floor"] = distarray::support::median_slowest_seconds(world, reps, [&] { hand.floor(); });

  if (c.kind == CaseKind::block_cyclic) {
    compare::Pxgemr2d<T> pdgemr2d(compare::Implementation::scalapack, from, to, world_rank(), world_size());
    measure(
        "pdgemr2d", [&] { pdgemr2d(in, out); }, b_wrong);
#ifdef DISTARRAY_HAVE_COSTA
    compare::CostaTransform<T> costa(from, in, to, out, world);
    measure(
        "costa-transform", [&] { costa(); }, b_wrong);
#else
    not_built({"costa-transform"});
#endif
    return row;
  }
  compare::FftwTranspose<T> fftw(n, n, world);  // FFTW_MEASURE planning overwrites the buffers
  std::copy(in, in + a.local_size(), fftw.in());
  measure(
      "fftw-mpi", [&] { fftw(); },
      [&] {
        return compare::wrong_elements(DistArray<T, 2, Host, Left>::wrap(to, world, fftw.out()), world);
      });
#ifdef DISTARRAY_HAVE_HEFFTE
  for (const auto& [method, algorithm] : {std::pair{"heffte-alltoallv", heffte::reshape_algorithm::alltoallv},
                                          {"heffte-p2p", heffte::reshape_algorithm::p2p},
                                          {"heffte-p2p-plined", heffte::reshape_algorithm::p2p_plined}}) {
    compare::HeffteReshape<T> reshape(from, storage_order_of<SourceOrder>(), to,
                                      storage_order_of<DestOrder>(), algorithm, world);
    measure(
        method, [&] { reshape(in, out); }, b_wrong);
  }
#else
  not_built({"heffte-alltoallv", "heffte-p2p", "heffte-p2p-plined"});
#endif
  return row;
}

template <class T>
Row run_case(const Case& c, index_t n, int reps, const std::vector<ExchangeEngine>& engines) {
  switch (c.kind) {
    case CaseKind::transpose_row_major:
      return run_case<T, Right, Right>(c, n, reps, engines);
    case CaseKind::transpose_column_major:
      return run_case<T, Right, Left>(c, n, reps, engines);
    case CaseKind::block_cyclic:
      break;
  }
  return run_case<T, Left, Left>(c, n, reps, engines);
}

int run(int argc, char** argv) {
  compare::TableOptions o;
  o.sizes = {"256", "1024", "4096"};
  const auto args = compare::parse_options(argc, argv, o, {"json", "engines"});
  const std::string json = args.text("json");
  std::vector<ExchangeEngine> engines;
  for (const std::string& name : compare::split(args.text("engines", "")))
    engines.push_back(parse_exchange_engine(name));
  const auto& [sizes, types, reps, only] = o;
  for (const std::string& type : types)
    if (type != "double" && type != "complex")
      throw UsageError("--types takes double and complex, not '" + type + "'");
  std::vector<Row> rows;
  for (const std::string& size : sizes)
    for (const Case& c : compare::cases_for(world_size())) {
      if (c.name.find(only) == std::string::npos) continue;
      for (const std::string& type : types) {
        const index_t n = std::stol(size);
        rows.push_back(type == "double" ? run_case<double>(c, n, reps, engines)
                                        : run_case<std::complex<double>>(c, n, reps, engines));
        if (world_rank() == 0)
          std::fprintf(stderr, "done %s %s^2 %s\n", c.name.c_str(), size.c_str(), type.c_str());
      }
    }
  std::vector<Row> routines;
  for (const std::string& size : sizes)
    for (const compare::RoutineCase& c : compare::routine_cases(world_size())) {
      if ((c.routine + " " + c.name).find(only) == std::string::npos) continue;
      for (const std::string& type : types) {
        const index_t n = std::stol(size);
        routines.push_back(type == "double" ? compare::run_routine<double>(c, n, reps, world)
                                            : compare::run_routine<std::complex<double>>(c, n, reps, world));
        if (world_rank() == 0)
          std::fprintf(stderr, "done %s %s %s^2 %s\n", c.routine.c_str(), c.name.c_str(), size.c_str(),
                       type.c_str());
      }
    }
  if (world_rank() != 0) return 0;
  compare::print_table(rows, reps);
  compare::print_routines(routines);
  rows.insert(rows.end(), routines.begin(), routines.end());
  if (!json.empty()) compare::write_json(json, rows, reps);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_compare", argc, argv, [](int count, char** words) {
    const distarray::support::FftwMpi fftw;
    return run(count, words);
  });
}
