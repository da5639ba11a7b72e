// bench/overlap: what batched and non-blocking executions buy a solver, in
// one run, on the ADI/FFT transpose (block,*) -> (*,block) of n x n doubles.
//
//  (a) batched: k arrays moved by one batched execution against k separate
//      executions of the same plan, on the automatic engine and on packed
//      buffers (alltoallv, what the batched execution moves); ratio
//      separate / batched.
//  (b) overlap: per exchange engine, a compute kernel calibrated to about
//      the exchange's duration runs after the exchange (sequential) or
//      between start() and wait() (overlapped), either calling test()
//      between its chunks or never; hidden = (sequential - overlapped) /
//      exchange, the fraction of the exchange the compute hid.  Without
//      test() calls only an MPI that progresses in the background moves
//      the messages.
// Medians over --reps of the slowest rank.
//
//   mpiexec -n 4 build/bench/bench_overlap [--sizes 256,1024,4096] [--counts 1,3,8] [--reps 10] [--json FILE]

#include "compare/options.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace distarray;
const MPI_Comm world = MPI_COMM_WORLD;

int world_size() {
  int s = 1;
  MPI_Comm_size(world, &s);
  return s;
}

struct Batched {
  index_t n;
  int k;
  std::string asked, engine;  // the plan's option, and the engine it ran
  double batched, separate;
};

struct Overlap {
  index_t n;
  std::string engine;
  bool polls;
  double exchange, compute, sequential, overlapped;
  double hidden() const { return (sequential - overlapped) / exchange; }
};

Layout<2> rows(index_t n) {
  return Layout<2>::parse("block,* on " + std::to_string(world_size()) + "x1", {n, n});
}
Layout<2> columns(index_t n) {
  return Layout<2>::parse("*,block on 1x" + std::to_string(world_size()), {n, n});
}

std::vector<DistArray<double, 2>> arrays(const Layout<2>& l, int k) {
  std::vector<DistArray<double, 2>> v;
  for (int j = 0; j < k; ++j) {
    v.emplace_back(l, world);
    Kokkos::deep_copy(v.back().local(), double(j));
  }
  return v;
}

/// The plan's own engine (automatic) and packed buffers (alltoallv), whose
/// single executions differ only in the messages' count from the batched.
Batched batched_against_separate(index_t n, int k, ExchangeEngine engine, int reps) {
  PlanOptions o;
  o.exchange = engine;
  Plan<double, 2> plan(rows(n), columns(n), world, o);
  const auto a = arrays(rows(n), k);
  auto b = arrays(columns(n), k);
  for (int i = 0; i < 6; ++i) plan.execute(std::span(a), std::span(b));  // the automatic engine settles
  Batched r{n, k, std::string(to_string(engine)), "", 0, 0};
  r.batched = distarray::support::median_slowest_seconds(world, reps,
                                                         [&] { plan.execute(std::span(a), std::span(b)); });
  r.separate = distarray::support::median_slowest_seconds(world, reps, [&] {
    for (int j = 0; j < k; ++j) plan.execute(a[std::size_t(j)], b[std::size_t(j)]);
  });
  r.engine = plan.report().exchange;
  return r;
}

/// A memory-bound kernel in `chunks` pieces, poll() between them.
class Compute {
 public:
  Compute() : work_(std::size_t(1) << 17, 1.0) {}  // 1 MiB
  template <class Poll>
  void operator()(int chunks, Poll&& poll) {
    for (int c = 0; c < chunks; ++c) {
      for (double& w : work_) w = w * 0.999 + 1e-3;
      poll();
    }
  }
  double checksum() const { return work_[0]; }

 private:
  std::vector<double> work_;
};

Overlap overlap(index_t n, ExchangeEngine engine, bool polls, int reps) {
  PlanOptions o;
  o.exchange = engine;
  Plan<double, 2> plan(rows(n), columns(n), world, o);
  DistArray<double, 2> a(rows(n), world), b(columns(n), world);
  Kokkos::deep_copy(a.local(), 1.0);
  Compute compute;
  const auto none = [] {};
  Overlap r{n, std::string(to_string(engine)), polls, 0, 0, 0, 0};
  r.exchange = distarray::support::median_slowest_seconds(world, reps, [&] { plan.execute(a, b); });
  const double chunk = distarray::support::median_slowest_seconds(world, reps, [&] { compute(1, none); });
  const int chunks = std::max(1, int(r.exchange / std::max(chunk, 1e-9) + 0.5));
  r.compute = distarray::support::median_slowest_seconds(world, reps, [&] { compute(chunks, none); });
  r.sequential = distarray::support::median_slowest_seconds(world, reps, [&] {
    plan.execute(a, b);
    compute(chunks, none);
  });
  r.overlapped = distarray::support::median_slowest_seconds(world, reps, [&] {
    Request request = plan.start(a, b);
    if (polls)
      compute(chunks, [&] { request.test(); });
    else
      compute(chunks, none);
    request.wait();
  });
  if (compute.checksum() < 0) std::printf("?");  // keeps the kernel
  return r;
}

void write_record(distarray::support::JsonRecord& record, const std::vector<Batched>& batched,
                  const std::vector<Overlap>& over, int reps) {
  record.note("unit", "seconds");
  record.note("reps", double(reps));
  for (const Batched& r : batched)
    record.row()
        .set("measure", "batched")
        .set("n", static_cast<long long>(r.n))
        .set("k", r.k)
        .set("asked", r.asked)
        .set("engine", r.engine)
        .set("batched_s", r.batched)
        .set("separate_s", r.separate);
  for (const Overlap& r : over)
    record.row()
        .set("measure", "overlap")
        .set("n", static_cast<long long>(r.n))
        .set("engine", r.engine)
        .set("test_calls", r.polls)
        .set("exchange_s", r.exchange)
        .set("compute_s", r.compute)
        .set("sequential_s", r.sequential)
        .set("overlapped_s", r.overlapped);
}

int run(int argc, char** argv) {
  compare::TableOptions o;
  o.sizes = {"256", "1024", "4096"};
  const auto default_types = o.types;
  std::vector<std::string> counts{"1", "3", "8"};
  const auto args = compare::parse_options(argc, argv, o, {"counts", "json"});
  if (args.has("counts")) counts = compare::split(args.text("counts"));
  const std::string json = args.text("json");
  if (o.types != default_types || !o.only.empty())
    throw UsageError("bench_overlap moves doubles on one case: --types and --cases do not apply");
  std::vector<Batched> batched;
  std::vector<Overlap> over;
  for (const std::string& size : o.sizes) {
    const index_t n = std::stol(size);
    for (ExchangeEngine e : {ExchangeEngine::automatic, ExchangeEngine::alltoallv})
      for (const std::string& k : counts)
        batched.push_back(batched_against_separate(n, std::stoi(k), e, o.reps));
    for (ExchangeEngine e :
         {ExchangeEngine::alltoallv, ExchangeEngine::datatype, ExchangeEngine::p2p, ExchangeEngine::encoded})
      for (bool polls : {true, false}) over.push_back(overlap(n, e, polls, o.reps));
  }
  distarray::support::JsonRecord record("bench_overlap", argc, argv, world);
  write_record(record, batched, over, o.reps);
  record.write(json);
  int rank = 0;
  MPI_Comm_rank(world, &rank);
  if (rank != 0) return 0;
  std::printf(
      "bench_overlap: %d ranks, (block,*) -> (*,block) of n x n doubles, median of %d (slowest rank)\n",
      world_size(), o.reps);
  std::printf("batched: k arrays in one execution against k executions (whose engine is given)\n");
  std::printf("%7s %3s %-22s %12s %12s %9s\n", "n", "k", "separate: engine", "batched ms", "separate ms",
              "speed-up");
  for (const Batched& r : batched)
    std::printf("%7ld %3d %-22s %12.3f %12.3f %9.2f\n", long(r.n), r.k, r.engine.c_str(), r.batched * 1e3,
                r.separate * 1e3, r.separate / r.batched);
  std::printf("overlap: compute of about the exchange's time, after it or between start and wait\n");
  std::printf("%7s %-10s %-6s %11s %10s %13s %13s %7s\n", "n", "engine", "test()", "exchange ms",
              "compute ms", "sequential ms", "overlapped ms", "hidden");
  for (const Overlap& r : over)
    std::printf("%7ld %-10s %-6s %11.3f %10.3f %13.3f %13.3f %6.0f%%\n", long(r.n), r.engine.c_str(),
                r.polls ? "yes" : "no", r.exchange * 1e3, r.compute * 1e3, r.sequential * 1e3,
                r.overlapped * 1e3, 100 * r.hidden());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return distarray::support::driver_main("bench_overlap", argc, argv, run); }
