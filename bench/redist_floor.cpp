// Plan execution time against the communication floor, in one run.
//
// For each case: the plan's time per activity (pack, exchange, unpack) and the
// floor — one bare MPI_Alltoallv of the same per-peer byte counts from
// pre-packed buffers (the self part included) — each the median over
// repetitions of the slowest rank.  Prints a table and, with --json FILE, the
// same as a record (support/json_record.hpp).
//
//   mpiexec -n 4 build/bench/bench_redist_floor [--size 4096] [--reps 15] [--json FILE]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/json_record.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace distarray;

/// Elements this rank sends to / receives from each rank, from the 1-D schedules.
std::pair<std::vector<index_t>, std::vector<index_t>> peer_counts(const Layout<2>& from, const Layout<2>& to,
                                                                  int me, int size) {
  const std::size_t ranks = static_cast<std::size_t>(size);
  std::vector<index_t> send(ranks, 0), recv(ranks, 0);
  const auto count = [&](const Layout<2>& mine, const Layout<2>& other, std::vector<index_t>& out) {
    const auto c = mine.grid().coord_of(me);
    if (!c) return;
    const auto rows = partition_runs(ScheduleMethod::automatic, mine.dist(0), (*c)[0], other.dist(0));
    const auto cols = partition_runs(ScheduleMethod::automatic, mine.dist(1), (*c)[1], other.dist(1));
    for (const auto& r : rows)
      for (const auto& k : cols)
        out[std::size_t(other.grid().rank_of({r.peer, k.peer}))] += r.size() * k.size();
  };
  count(from, to, send);
  count(to, from, recv);
  return {send, recv};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Result {
  std::string name, from, to, engine;
  double pack, exchange, unpack, total, floor;
};

Result run_case(const std::string& name, const std::string& from_text, const std::string& to_text, index_t n,
                ExchangeEngine engine, int reps) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto from = Layout<2>::parse(from_text, {n, n});
  const auto to = Layout<2>::parse(to_text, {n, n});
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  a.fill([n](const Index<2>& g) { return double(g[0] * n + g[1]); });
  PlanOptions options;
  options.exchange = engine;
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD, options);

  // Times per activity: medians over repetitions of the slowest rank.
  std::vector<double> pack, exchange, unpack, total;
  plan.execute(a, b);
  for (int i = 0; i < reps; ++i) {
    const PlanReport before = plan.report();
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    plan.execute(a, b);
    // The message to oneself is copied right after packing: counted with it.
    double t[4] = {
        plan.report().pack_seconds - before.pack_seconds + plan.report().local_seconds - before.local_seconds,
        plan.report().exchange_seconds - before.exchange_seconds,
        plan.report().unpack_seconds - before.unpack_seconds, MPI_Wtime() - start};
    MPI_Allreduce(MPI_IN_PLACE, t, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    pack.push_back(t[0]);
    exchange.push_back(t[1]);
    unpack.push_back(t[2]);
    total.push_back(t[3]);
  }

  // The floor: the same bytes per peer, already packed, one MPI_Alltoallv.
  const auto [send, recv] = peer_counts(from, to, me, size);
  const std::size_t ranks = static_cast<std::size_t>(size);
  std::vector<int> sc(ranks), sd(ranks), rc(ranks), rd(ranks);
  index_t so = 0, ro = 0;
  for (int r = 0; r < size; ++r) {
    sc[std::size_t(r)] = int(send[std::size_t(r)] * 8);
    sd[std::size_t(r)] = int(so);
    so += sc[std::size_t(r)];
    rc[std::size_t(r)] = int(recv[std::size_t(r)] * 8);
    rd[std::size_t(r)] = int(ro);
    ro += rc[std::size_t(r)];
  }
  std::vector<char> sbuf(static_cast<std::size_t>(so), 1), rbuf(static_cast<std::size_t>(ro));
  // One untimed warm-up, then the median of the slowest rank.
  MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), MPI_BYTE, rbuf.data(), rc.data(), rd.data(), MPI_BYTE,
                MPI_COMM_WORLD);
  const double floor = distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] {
    MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), MPI_BYTE, rbuf.data(), rc.data(), rd.data(), MPI_BYTE,
                  MPI_COMM_WORLD);
  });
  return {name,         from_text,        to_text,        std::string(to_string(engine)),
          median(pack), median(exchange), median(unpack), median(total),
          floor};
}

}  // namespace

int run(int argc, char** argv) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  index_t n = 4096;
  int reps = 15;
  const support::Options args(argc, argv, {"size", "reps", "json"});
  n = args.integer("size", n, 1);
  reps = int(args.integer("reps", reps, 1, INT_MAX));
  const std::string json = args.text("json");
  const std::string p = std::to_string(size);
  std::vector<Result> results;
  for (ExchangeEngine e : {ExchangeEngine::alltoallv, ExchangeEngine::p2p, ExchangeEngine::datatype}) {
    results.push_back(run_case("transpose", "block,* on " + p + "x1", "*,block on 1x" + p, n, e, reps));
    if (size == 4)
      // The issue names block(64),block(64): HPF's block(64) over 2 ranks holds
      // only 128 elements, so the 64x64 blocks of ScaLAPACK are cyclic(64).
      results.push_back(run_case("blockcyclic", "cyclic(64),cyclic(64) on 2x2",
                                 "cyclic(16),cyclic(16) on 1x4", n, e, reps));
  }
  support::JsonRecord record("bench_redist_floor", argc, argv, MPI_COMM_WORLD);
  record.note("unit", "seconds");
  record.note("n", double(n));
  for (const Result& r : results)
    record.row()
        .set("case", r.name)
        .set("from", r.from)
        .set("to", r.to)
        .set("engine", r.engine)
        .set("pack_s", r.pack)
        .set("exchange_s", r.exchange)
        .set("unpack_s", r.unpack)
        .set("total_s", r.total)
        .set("floor_s", r.floor);
  record.write(json);
  if (me != 0) return 0;
  std::printf("%d ranks, %ldx%ld doubles, median of %d (slowest rank)\n", size, long(n), long(n), reps);
  std::printf("%-12s %-10s %9s %9s %9s %9s %9s %7s\n", "case", "engine", "pack ms", "exch ms", "unpack ms",
              "total ms", "floor ms", "ratio");
  for (const Result& r : results)
    std::printf("%-12s %-10s %9.2f %9.2f %9.2f %9.2f %9.2f %7.2f\n", r.name.c_str(), r.engine.c_str(),
                r.pack * 1e3, r.exchange * 1e3, r.unpack * 1e3, r.total * 1e3, r.floor * 1e3,
                r.total / r.floor);
  return 0;
}

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_redist_floor", argc, argv, run);
}
