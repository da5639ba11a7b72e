// What stays on a rank (issue 50, item 2): a one-rank redistribution's whole
// execution against one copy of the array's bytes (Kokkos::deep_copy between
// two views of the memory space), both medians of the same run.  The
// message to oneself goes from the source block to the destination block
// in one kernel, so the limit is 1x: one read and one write of every element.
//   same order   (block,*) -> (*,block), both row-major: a straight copy
//   transposing  (block,*) row-major -> (*,block) column-major: a local
//                transpose in cache tiles
//   block-cyclic (cyclic(64),cyclic(48)) -> (block,block), row-major
// for f64 and complex<double>.  Run it on one rank, at each thread count:
//   OMP_NUM_THREADS=1 build-openmp/bench/bench_one_rank --size 4096 --json docs/bench/one_rank_1t.json
// Prints a table and, with --json FILE, the same as a record (support/json_record.hpp);
// --build LABEL names the build in it (bench/record_tables.py sets records side by side).

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <climits>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace distarray;

/// Median seconds of f() over `reps` runs, each fenced.
double median_seconds(int reps, const auto& f) {
  return support::median_slowest_seconds(
      MPI_COMM_SELF, reps, [] { Kokkos::fence(); },
      [&] {
        f();
        Kokkos::fence();
      });
}

struct Row {
  std::string name, type;
  double bytes, execute, copy;
};

template <class T, class DestOrder>
Row measure(const std::string& name, const std::string& type, const std::string& from_text,
            const std::string& to_text, index_t n, int reps) {
  const auto from = Layout<2>::parse(from_text, {n, n}), to = Layout<2>::parse(to_text, {n, n});
  DistArray<T, 2> a(from, MPI_COMM_SELF);
  DistArray<T, 2, Kokkos::DefaultExecutionSpace::memory_space, DestOrder> b(to, MPI_COMM_SELF);
  Kokkos::deep_copy(a.local(), T(1));
  PlanOptions options;
  options.exchange = ExchangeEngine::alltoallv;  // (one rank: no message, no engine is measured)
  Plan<T, 2, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::LayoutRight, DestOrder> plan(
      from, to, MPI_COMM_SELF, options);
  plan.execute(a, b);  // warm-up: pages touched
  const auto flat = [](const auto& v) {
    return Kokkos::View<T*, Kokkos::DefaultExecutionSpace::memory_space>(v.data(), v.size());
  };
  const auto copy_to = flat(b.local());
  const auto copy_from = flat(a.local());
  Row r{name, type, double(a.local().size() * sizeof(T)), 0, 0};
  r.execute = median_seconds(reps, [&] { plan.execute(a, b); });
  r.copy = median_seconds(reps, [&] { Kokkos::deep_copy(copy_to, copy_from); });
  return r;
}

template <class T>
void measure_type(std::vector<Row>& rows, index_t n, int reps) {
  const std::string type = ElementType<T>::name;
  rows.push_back(
      measure<T, Kokkos::LayoutRight>("same order", type, "block,* on 1x1", "*,block on 1x1", n, reps));
  rows.push_back(
      measure<T, Kokkos::LayoutLeft>("transposing", type, "block,* on 1x1", "*,block on 1x1", n, reps));
  rows.push_back(measure<T, Kokkos::LayoutRight>("block-cyclic", type, "cyclic(64),cyclic(48) on 1x1",
                                                 "block,block on 1x1", n, reps));
}

}  // namespace

int run(int argc, char** argv) {
  const support::Options args(argc, argv, {"size", "reps", "json", "build"});
  const index_t n = args.integer("size", 4096, 1);
  const int reps = int(args.integer("reps", 21, 1, INT_MAX));
  const std::string json = args.text("json");
  std::vector<Row> rows;
  measure_type<double>(rows, n, reps);
  measure_type<std::complex<double>>(rows, n, reps);
  const int threads = Kokkos::DefaultExecutionSpace().concurrency();
  std::printf("one-rank redistributions: %lldx%lld, %s with %d thread%s, median of %d\n", (long long)n,
              (long long)n, Kokkos::DefaultExecutionSpace::name(), threads, threads == 1 ? "" : "s", reps);
  std::printf("%-14s %5s %8s %12s %10s %14s\n", "case", "type", "MiB", "execute ms", "copy ms",
              "execute/copy");
  support::JsonRecord record("bench_one_rank", argc, argv, MPI_COMM_WORLD);
  record.note("space", Kokkos::DefaultExecutionSpace::name());
  record.note("threads", double(threads));
  record.note("n", double(n));
  if (!args.text("build").empty()) record.note("build", args.text("build"));  // a label for the tables
  for (const Row& r : rows) {
    std::printf("%-14s %5s %8.1f %12.3f %10.3f %14.2f\n", r.name.c_str(), r.type.c_str(), r.bytes / (1 << 20),
                r.execute * 1e3, r.copy * 1e3, r.execute / r.copy);
    record.row()
        .set("case", r.name)
        .set("type", r.type)
        .set("bytes", r.bytes)
        .set("execute_s", r.execute)
        .set("copy_s", r.copy);
  }
  record.write(json);
  return 0;
}

int main(int argc, char** argv) { return support::driver_main("bench_one_rank", argc, argv, run); }
