// How good is `auto`?  For each case, every candidate strategy is built and
// timed (median of the slowest rank over repetitions); the table shows the
// modelled and measured cost of each, whether auto's pick is within 10% of
// the measured best, and the Spearman rank correlation of modelled against
// measured cost (per case, and pooled over all candidates of all cases).
//
//   mpiexec -n 4 build/bench/bench_strategy_choice [--reps 7] [--json FILE]

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace distarray;

struct Measured {
  std::string name;
  double modelled, measured;
};

struct CaseResult {
  std::string name;
  std::vector<Measured> candidates;
  std::size_t pick = 0;  // auto's choice: the lowest modelled cost
};

template <int D>
CaseResult run_case(const std::string& name, const std::string& from_text, const std::string& to_text,
                    const Index<D>& shape, int reps) {
  const auto from = Layout<D>::parse(from_text, shape);
  const auto to = Layout<D>::parse(to_text, shape);
  DistArray<double, D> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  a.fill([&](const Index<D>& g) { return double(row_major_offset(g, shape)); });
  CaseResult r{name, {}, 0};
  Plan<double, D> automatic(from, to, MPI_COMM_WORLD);
  for (const auto& c : automatic.candidates()) {
    PlanOptions o;
    o.candidate = c.name;
    Plan<double, D> plan(from, to, MPI_COMM_WORLD, o);
    plan.execute(a, b);  // warm-up
    r.candidates.push_back(
        {c.name, c.cost,
         distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, [&] { plan.execute(a, b); })});
    if (c.name == automatic.chosen().name) r.pick = r.candidates.size() - 1;
  }
  return r;
}

/// Ranks (1-based, ties averaged).
std::vector<double> ranks_of(const std::vector<double>& v) {
  std::vector<std::size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) r[idx[k]] = double(i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/// Spearman's rank correlation; NaN for fewer than two points or constant ranks.
double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2) return std::nan("");
  const auto rx = ranks_of(x), ry = ranks_of(y);
  const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / double(rx.size());
  const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / double(ry.size());
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mx) * (ry[i] - my);
    sxx += (rx[i] - mx) * (rx[i] - mx);
    syy += (ry[i] - my) * (ry[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : std::nan("");
}

int run(int argc, char** argv) {
  int me = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int reps = 7;
  const support::Options args(argc, argv, {"reps", "json"});
  reps = int(args.integer("reps", reps, 1, INT_MAX));
  const std::string json = args.text("json");
  if (size != 4) {
    if (me == 0) std::fprintf(stderr, "bench_strategy_choice runs its cases on 4 ranks\n");
    return 1;
  }
  std::vector<CaseResult> results;
  // Block-size changes, small and large 1-D arrays.
  for (index_t n : {index_t(4096), index_t(1) << 20, index_t(1) << 24}) {
    const std::string size_text = std::to_string(n);
    results.push_back(
        run_case<1>("1d " + size_text + " block->cyclic(2)", "block on 4", "cyclic(2) on 4", {n}, reps));
    results.push_back(
        run_case<1>("1d " + size_text + " block->cyclic(16)", "block on 4", "cyclic(16) on 4", {n}, reps));
    results.push_back(run_case<1>("1d " + size_text + " cyclic(64)->cyclic(2)", "cyclic(64) on 4",
                                  "cyclic(2) on 4", {n}, reps));
    results.push_back(run_case<1>("1d " + size_text + " cyclic(4)->cyclic(6)", "cyclic(4) on 4",
                                  "cyclic(6) on 4", {n}, reps));
  }
  // 2-D: shape-retaining, block-size, grid changes and transposes, small and large.
  for (index_t n : {index_t(256), index_t(2048)}) {
    const std::string s = std::to_string(n) + "^2 ";
    const Index<2> shape{n, n};
    results.push_back(run_case<2>(s + "(block,block)->(cyclic,cyclic)", "block,block on 2x2",
                                  "cyclic,cyclic on 2x2", shape, reps));
    results.push_back(run_case<2>(s + "(cyclic(8),block)->(cyclic(2),cyclic(4))", "cyclic(8),block on 2x2",
                                  "cyclic(2),cyclic(4) on 2x2", shape, reps));
    results.push_back(run_case<2>(s + "transpose", "block,* on 4x1", "*,block on 1x4", shape, reps));
    results.push_back(run_case<2>(s + "2x2 -> 4x1", "block,block on 2x2", "block,* on 4x1", shape, reps));
    results.push_back(run_case<2>(s + "cyclic(64)^2 2x2 -> cyclic(16)^2 1x4", "cyclic(64),cyclic(64) on 2x2",
                                  "cyclic(16),cyclic(16) on 1x4", shape, reps));
  }
  results.push_back(run_case<3>("64^3 pencil (block,block,*)->(block,*,block)", "block,block,* on 2x2x1",
                                "block,*,block on 2x1x2", {64, 64, 64}, reps));
  if (me != 0) return 0;

  int within = 0, choices = 0;
  std::vector<double> pooled_model, pooled_time, per_case;
  std::printf("%-48s %-62s %11s %11s\n", "case", "candidate", "model ms", "measured ms");
  for (const auto& r : results) {
    double best = 1e300;
    std::vector<double> m, t;
    for (const auto& c : r.candidates) {
      best = std::min(best, c.measured);
      m.push_back(c.modelled);
      t.push_back(c.measured);
      pooled_model.push_back(c.modelled);
      pooled_time.push_back(c.measured);
    }
    for (std::size_t i = 0; i < r.candidates.size(); ++i)
      std::printf("%-48s %s %-60s %11.4f %11.4f\n", i ? "" : r.name.c_str(), i == r.pick ? "*" : " ",
                  r.candidates[i].name.c_str(), r.candidates[i].modelled * 1e3,
                  r.candidates[i].measured * 1e3);
    const bool ok = r.candidates[r.pick].measured <= 1.10 * best;
    within += ok;
    ++choices;
    const double rho = spearman(m, t);
    if (!std::isnan(rho)) per_case.push_back(rho);
    std::printf("%-48s   auto's pick %s the measured best (%.2fx); Spearman %s\n", "",
                ok ? "within 10% of" : "NOT within 10% of", r.candidates[r.pick].measured / best,
                std::isnan(rho) ? "n/a (one candidate)" : std::to_string(rho).c_str());
  }
  const double mean_rho =
      per_case.empty() ? std::nan("")
                       : std::accumulate(per_case.begin(), per_case.end(), 0.0) / double(per_case.size());
  const double pooled = spearman(pooled_model, pooled_time);
  std::printf("\nauto within 10%% of the measured best: %d of %d cases (%.0f%%)\n", within, choices,
              100.0 * within / choices);
  std::printf(
      "Spearman rank correlation, modelled vs measured: mean per case %.3f (%zu cases with >1 candidate), "
      "pooled %.3f\n",
      mean_rho, per_case.size(), pooled);
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"cases\": [\n";
    for (std::size_t k = 0; k < results.size(); ++k) {
      const auto& r = results[k];
      out << "  {\"case\": \"" << r.name << "\", \"pick\": \"" << r.candidates[r.pick].name
          << "\", \"candidates\": [";
      for (std::size_t i = 0; i < r.candidates.size(); ++i)
        out << (i ? ", " : "") << "{\"name\": \"" << r.candidates[i].name
            << "\", \"modelled_s\": " << r.candidates[i].modelled
            << ", \"measured_s\": " << r.candidates[i].measured << "}";
      out << "]}" << (k + 1 < results.size() ? "," : "") << "\n";
    }
    out << "], \"within_10_percent\": " << within << ", \"cases_total\": " << choices
        << ", \"spearman_mean\": " << mean_rho << ", \"spearman_pooled\": " << pooled << "}\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("bench_strategy_choice", argc, argv, run);
}
