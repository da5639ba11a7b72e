// One rank's 1-D schedule build time, for every generator:
//  RemoteGrid/<method>/R  : R = 2 .. 10^6 remote processes at a fixed output
//                           size (32 local blocks of 64 on 4 processes, remote
//                           blocks of 193: no lcm period fits, each local block
//                           meets one or two remote blocks);
//  ClosedForm/<method>/R  : kr->r with k = 3 on R processes on both sides (the
//                           Hsu-Chung closed forms need equal grids), one LCC;
//  LocalBlocks/<method>/B : B = 2 .. 2^14 local blocks against R = 64.
// The "stored" counter is the schedule's size: segments kept in periodic form.
// Run: build/bench/bench_schedule_build [--benchmark_format=json]

#include <distarray/redist/schedule.hpp>

#include <benchmark/benchmark.h>

#include <string>

namespace {

using distarray::Dist1D;
using distarray::index_t;
using distarray::ScheduleMethod;

void build(benchmark::State& state, ScheduleMethod method, const Dist1D& local, const Dist1D& remote) {
  std::size_t stored = 0;
  for (auto _ : state) {
    const auto runs = distarray::partition_runs(method, local, 1, remote);
    benchmark::DoNotOptimize(runs.data());
    stored = 0;
    for (const auto& r : runs)
      for (const auto& p : r.patterns) stored += p.segments.size();
  }
  state.counters["stored"] = double(stored);
}

void remote_grid(benchmark::State& state, ScheduleMethod method) {
  const int r = int(state.range(0));
  const index_t n = 4 * 64 * 32;
  build(state, method, Dist1D::cyclic_b(n, 4, 64), Dist1D::cyclic_b(n, r, 193));
}

void closed_form(benchmark::State& state, ScheduleMethod method) {
  const int r = int(state.range(0));
  const index_t n = index_t(r) * 6 * 4;
  build(state, method, Dist1D::cyclic_b(n, r, 6), Dist1D::cyclic_b(n, r, 2));
}

void local_blocks(benchmark::State& state, ScheduleMethod method) {
  const index_t blocks = state.range(0);
  const index_t n = 4 * 64 * blocks;
  build(state, method, Dist1D::cyclic_b(n, 4, 64), Dist1D::cyclic_b(n, 64, 193));
}

void register_all() {
  for (ScheduleMethod m : distarray::all_schedule_methods()) {
    const std::string name(distarray::to_string(m));
    if (m != ScheduleMethod::hsu_chung)  // needs equal grids
      benchmark::RegisterBenchmark(("RemoteGrid/" + name).c_str(), remote_grid, m)
          ->RangeMultiplier(10)
          ->Range(2, 1'000'000)
          ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("ClosedForm/" + name).c_str(), closed_form, m)
        ->RangeMultiplier(10)
        ->Range(2, m == ScheduleMethod::brute || m == ScheduleMethod::classical ? 10'000 : 1'000'000)
        ->Unit(benchmark::kMicrosecond);
    if (m != ScheduleMethod::hsu_chung)
      benchmark::RegisterBenchmark(("LocalBlocks/" + name).c_str(), local_blocks, m)
          ->RangeMultiplier(8)
          ->Range(2, 1 << 14)
          ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
