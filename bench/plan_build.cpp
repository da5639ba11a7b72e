// Plan build time (construction of a Plan: strategy, copy tables, engines,
// buffers) for the cases of bench/compare at large sizes, medians of the
// slowest rank over --reps builds.  Columns:
//   first     : the first plan of the process (the cost model calibrated,
//               or read from --wisdom FILE);
//   again     : later plans of the same process (calibration cached).
// With --wisdom FILE, run it twice: the first run measures (each case also
// executed until its automatic engine settles) and writes the file, the
// second plans from it ("cost model wisdom", engines decided, nothing measured).
// Run: mpiexec -n 4 build/bench/bench_plan_build [--sizes 4096,8192] [--reps 5]
//      [--types double,complex] [--cases SUBSTRING] [--wisdom FILE] [--json FILE]

#include "compare/cases.hpp"
#include "compare/options.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>

#include <complex>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using Host = Kokkos::HostSpace;
using Left = Kokkos::LayoutLeft;
using Right = Kokkos::LayoutRight;
const MPI_Comm world = MPI_COMM_WORLD;

/// Slowest rank's seconds of one collective f().
template <class F>
double slowest_seconds(F&& f) {
  return distarray::support::median_slowest_seconds(world, 1, f);
}

/// One case's plan builds: the first of the process (negative when not the
/// first), the median of later ones, and what the plan chose.
struct Builds {
  double first = -1, again = 0;
  std::string choice;
};

template <class T, class SourceOrder, class DestOrder>
Builds time_builds(const compare::Case& c, index_t n, int reps, const PlanOptions& options, bool first) {
  const Index<2> shape{n, n};
  const auto from = Layout<2>::parse(c.from, shape);
  const auto to = Layout<2>::parse(c.to, shape);
  Builds b;
  const auto build = [&] {
    Plan<T, 2, Host, SourceOrder, DestOrder> plan(from, to, world, options);
    b.choice =
        plan.report().method + ", " + plan.report().exchange + ", cost model " + plan.report().cost_model;
  };
  if (first) b.first = slowest_seconds(build);
  b.again = distarray::support::median_slowest_seconds(world, reps, build);
  if (!options.wisdom.empty()) {  // executions settle the automatic engine: into the wisdom
    DistArray<T, 2, Host, SourceOrder> a(from, world);
    DistArray<T, 2, Host, DestOrder> dest(to, world);
    Plan<T, 2, Host, SourceOrder, DestOrder> plan(from, to, world, options);
    for (int i = 0; i < 7; ++i) plan.execute(a, dest);
  }
  return b;
}

template <class T>
Builds time_case(const compare::Case& c, index_t n, int reps, const PlanOptions& options, bool first) {
  switch (c.kind) {
    case compare::CaseKind::transpose_row_major:
      return time_builds<T, Right, Right>(c, n, reps, options, first);
    case compare::CaseKind::transpose_column_major:
      return time_builds<T, Right, Left>(c, n, reps, options, first);
    case compare::CaseKind::block_cyclic:
      break;
  }
  return time_builds<T, Left, Left>(c, n, reps, options, first);
}

int run(int argc, char** argv) {
  compare::TableOptions o;
  o.sizes = {"4096", "8192"};
  o.reps = 5;
  PlanOptions options;
  const auto args = compare::parse_options(argc, argv, o, {"wisdom", "json"});
  options.wisdom = args.text("wisdom");
  distarray::support::JsonRecord record("bench_plan_build", argc, argv, world);
  record.note("unit", "seconds");
  const auto& [sizes, types, reps, only] = o;
  int size = 1, rank = 0;
  MPI_Comm_size(world, &size);
  MPI_Comm_rank(world, &rank);
  if (rank == 0)
    std::printf(
        "bench_plan_build: %d ranks, plan build ms (slowest rank): the process's first plan, "
        "then the median of %d more\n%-24s %8s %5s %9s %9s  %s\n",
        size, reps, "case", "size", "type", "first", "again", "chose");
  bool first = true;
  for (const std::string& text : sizes)
    for (const compare::Case& c : compare::cases_for(size))
      if (c.name.find(only) != std::string::npos)
        for (const std::string& type : types) {
          const index_t n = std::stol(text);
          if (type != "double" && type != "complex")
            throw UsageError("--types takes double and complex, not '" + type + "'");
          const Builds b = type == "double" ? time_case<double>(c, n, reps, options, first)
                                            : time_case<std::complex<double>>(c, n, reps, options, first);
          first = false;
          const char* name =
              type == "double" ? ElementType<double>::name : ElementType<std::complex<double>>::name;
          if (rank == 0)
            std::printf("%-24s %6ld^2 %5s %9s %9.2f  %s\n", c.name.c_str(), long(n), name,
                        b.first < 0 ? "-" : std::to_string(b.first * 1e3).substr(0, 7).c_str(), b.again * 1e3,
                        b.choice.c_str());
          auto& row = record.row().set("case", c.name).set("n", static_cast<long long>(n)).set("type", name);
          if (b.first >= 0) row.set("first_s", b.first);
          row.set("again_s", b.again).set("chose", b.choice);
        }
  record.write(args.text("json"));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_plan_build", argc, argv, run);
}
