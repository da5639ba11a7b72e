// bench/compare: distarray against what its users have, in one run on the
// same ranks — ScaLAPACK's pdgemr2d (2-D block-cyclic block-size and grid
// changes, grids of different sizes included), FFTW-MPI's
// fftw_mpi_plan_many_transpose (FFTW_MEASURE) for (block,*) -> (*,block),
// a hand-written MPI_Alltoallw of per-peer derived datatypes, and the floor:
// one bare MPI_Alltoallv of the same per-peer bytes from pre-packed buffers.
// Every method's result is checked element by element before it is timed
// (the floor moves bytes only).  Times are medians over --reps repetitions
// (after a warm-up) of the slowest rank.  Prints a table; writes JSON and an
// SVG chart of time against size.
//
//   mpiexec -n 4 build/bench/bench_compare [--sizes 1024,2048,4096,8192] [--cube 256]
//        [--reps 10] [--cases SUBSTRING] [--json FILE] [--svg FILE]

#include "hand_written.hpp"
#include "plot.hpp"
#include "scalapack.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <median_timing.hpp>

#include <fftw3-mpi.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace distarray;
using Host = Kokkos::HostSpace;
using Left = Kokkos::LayoutLeft;
using Right = Kokkos::LayoutRight;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

/// One case at one size: seconds per method.
struct Row {
  std::string name, from, to, distarray_choice;
  Index<3> shape{1, 1, 1};
  index_t elements = 0;
  std::map<std::string, double> seconds;
  double stages[3] = {0, 0, 0};  // distarray's pack, exchange, unpack per execution (slowest rank, mean)
  double plan_seconds = 0;       // distarray's plan construction (slowest rank)
};

/// Throws unless every element of `b` holds its row-major global index.
template <int D, class Order>
void check(const DistArray<double, D, Host, Order>& b, const std::string& method) {
  const Index<D> shape = b.layout().shape();
  long bad = 0;
  for (index_t i = 0; i < b.local_size(); ++i)
    bad += b.local().data()[i] != double(row_major_offset(b.global_index(b.local_index(i)), shape));
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (bad) throw Error(method + ": " + std::to_string(bad) + " elements are wrong");
}

template <int D, class Order>
void clear(DistArray<double, D, Host, Order>& b) {
  Kokkos::deep_copy(b.local(), -1.0);
}

/// Runs `f` once (untimed; the result is checked by the caller), then times it.
template <class F>
double timed(int reps, F&& f) {
  return median_slowest_seconds(MPI_COMM_WORLD, reps, f);
}

/// FFTW-MPI's transpose of an n0 x n1 array of rows in blocks into n1 x n0:
/// distarray's (block,*) -> column-major (*,block).
class FftwTranspose {
 public:
  FftwTranspose(index_t n0, index_t n1) {
    ptrdiff_t local_n0, start0, local_n1, start1;
    const ptrdiff_t n[2] = {ptrdiff_t(n0), ptrdiff_t(n1)};
    const ptrdiff_t alloc =
        fftw_mpi_local_size_many_transposed(2, n, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK,
                                            MPI_COMM_WORLD, &local_n0, &start0, &local_n1, &start1);
    in_ = fftw_alloc_real(std::size_t(std::max<ptrdiff_t>(alloc, 1)));
    out_ = fftw_alloc_real(std::size_t(std::max<ptrdiff_t>(alloc, 1)));
    plan_ = fftw_mpi_plan_many_transpose(n0, n1, 1, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, in_, out_,
                                         MPI_COMM_WORLD, FFTW_MEASURE);
    if (!plan_) throw Error("fftw_mpi_plan_many_transpose failed");
  }
  ~FftwTranspose() {
    fftw_destroy_plan(plan_);
    fftw_free(in_);
    fftw_free(out_);
  }
  double* in() { return in_; }
  double* out() { return out_; }
  void operator()() { fftw_execute(plan_); }

 private:
  double *in_, *out_;
  fftw_plan plan_;
};

struct Peers {
  bool scalapack = false, fftw = false;
};

template <int D, class SourceOrder, class DestOrder>
Row run_case(const std::string& name, const std::string& from_text, const std::string& to_text,
             const Index<D>& shape, Peers peers, int reps) {
  const auto from = Layout<D>::parse(from_text, shape);
  const auto to = Layout<D>::parse(to_text, shape);
  Row row{name, from_text, to_text};
  for (int d = 0; d < D; ++d) row.shape[d] = shape[d];
  row.elements = element_count(shape);
  DistArray<double, D, Host, SourceOrder> a(from, MPI_COMM_WORLD);
  DistArray<double, D, Host, DestOrder> b(to, MPI_COMM_WORLD);
  a.fill([&](const Index<D>& g) { return double(row_major_offset(g, shape)); });

  {  // distarray: the automatic method and engine settle on the first executions
    Plan<double, D, Host, SourceOrder, DestOrder> plan(from, to, MPI_COMM_WORLD);
    for (int i = 0; i < 5; ++i) plan.execute(a, b);
    clear(b);
    plan.execute(a, b);
    check(b, "distarray");
    const PlanReport before = plan.report();
    row.seconds["distarray"] = timed(reps, [&] { plan.execute(a, b); });
    const PlanReport& after = plan.report();
    row.stages[0] = (after.pack_seconds - before.pack_seconds) / reps;
    row.stages[1] = (after.exchange_seconds - before.exchange_seconds) / reps;
    row.stages[2] = (after.unpack_seconds - before.unpack_seconds) / reps;
    MPI_Allreduce(MPI_IN_PLACE, row.stages, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    row.distarray_choice = plan.report().method + ", " + plan.report().exchange;
    row.plan_seconds = plan.report().plan_seconds;
    MPI_Allreduce(MPI_IN_PLACE, &row.plan_seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  compare::HandWritten<D> hand(from, storage_order_of<SourceOrder>(), to, storage_order_of<DestOrder>(),
                               MPI_COMM_WORLD);
  clear(b);
  hand.alltoallw(a.local().data(), b.local().data());
  check(b, "hand-written MPI_Alltoallw");
  row.seconds["alltoallw"] = timed(reps, [&] { hand.alltoallw(a.local().data(), b.local().data()); });
  hand.floor();
  row.seconds["floor"] = timed(reps, [&] { hand.floor(); });
  if constexpr (D == 2) {
    if (peers.scalapack) {
      compare::Pdgemr2d pdgemr2d(from, to, world_rank(), world_size());
      clear(b);
      pdgemr2d(a.local().data(), b.local().data());
      check(b, "pdgemr2d");
      row.seconds["pdgemr2d"] = timed(reps, [&] { pdgemr2d(a.local().data(), b.local().data()); });
    }
    if (peers.fftw) {
      FftwTranspose fftw(shape[0], shape[1]);  // FFTW_MEASURE planning overwrites the buffers
      std::copy(a.local().data(), a.local().data() + a.local_size(), fftw.in());
      fftw();
      check(DistArray<double, 2, Host, Left>::wrap(to, MPI_COMM_WORLD, fftw.out()), "FFTW-MPI transpose");
      row.seconds["fftw-mpi"] = timed(reps, [&] { fftw(); });
    }
  }
  return row;
}

std::vector<index_t> parse_sizes(const std::string& text) {
  std::vector<index_t> v;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) v.push_back(std::stol(item));
  return v;
}

std::string grid(int a, int b) { return std::to_string(a) + "x" + std::to_string(b); }

/// Ratio of `peer` to distarray's time, or 0 when the peer did not run.
double speedup(const Row& r, const std::string& peer) {
  const auto it = r.seconds.find(peer);
  return it == r.seconds.end() ? 0.0 : it->second / r.seconds.at("distarray");
}

void print(const std::vector<Row>& rows, int ranks, int reps) {
  std::printf(
      "bench_compare: %d ranks, doubles, median of %d (slowest rank); ratios: peer time / distarray time,"
      " and distarray / floor\n",
      ranks, reps);
  std::printf("%-26s %-11s %10s %10s %10s %10s %10s | %8s %8s %8s %8s  %s\n", "case", "size", "distarray",
              "pdgemr2d", "fftw-mpi", "alltoallw", "floor", "pdgemr2d", "fftw", "a2aw", "/floor",
              "distarray chose");
  const auto ms = [](const Row& r, const char* m) {
    const auto it = r.seconds.find(m);
    return it == r.seconds.end() ? std::string("-") : std::to_string(it->second * 1e3).substr(0, 7);
  };
  const auto ratio = [](double v) { return v == 0 ? std::string("-") : std::to_string(v).substr(0, 4); };
  for (const Row& r : rows) {
    const std::string size =
        r.shape[2] > 1 ? std::to_string(r.shape[0]) + "^3" : std::to_string(r.shape[0]) + "^2";
    std::printf("%-26s %-11s %10s %10s %10s %10s %10s | %8s %8s %8s %8s  %s\n", r.name.c_str(), size.c_str(),
                ms(r, "distarray").c_str(), ms(r, "pdgemr2d").c_str(), ms(r, "fftw-mpi").c_str(),
                ms(r, "alltoallw").c_str(), ms(r, "floor").c_str(), ratio(speedup(r, "pdgemr2d")).c_str(),
                ratio(speedup(r, "fftw-mpi")).c_str(), ratio(speedup(r, "alltoallw")).c_str(),
                ratio(1 / speedup(r, "floor")).c_str(), r.distarray_choice.c_str());
  }
  std::printf("targets: pdgemr2d >= 2, fftw >= 1.3, a2aw >= 1, /floor <= 1.3\n");
  std::printf(
      "distarray stages, ms per execution (mean, slowest rank): pack / exchange / unpack;"
      " plan construction ms (once)\n");
  for (const Row& r : rows)
    std::printf("  %-26s %6ld  %8.3f %8.3f %8.3f  %8.3f\n", r.name.c_str(), long(r.shape[0]),
                r.stages[0] * 1e3, r.stages[1] * 1e3, r.stages[2] * 1e3, r.plan_seconds * 1e3);
}

void write_json(const std::string& file, const std::vector<Row>& rows, int ranks, int reps) {
  std::ofstream out(file);
  out << "{\"ranks\": " << ranks << ", \"reps\": " << reps << ", \"unit\": \"seconds\", \"cases\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << "  {\"case\": \"" << r.name << "\", \"from\": \"" << r.from << "\", \"to\": \"" << r.to
        << "\", \"shape\": [" << r.shape[0] << ", " << r.shape[1] << ", " << r.shape[2]
        << "], \"distarray_choice\": \"" << r.distarray_choice
        << "\", \"distarray_stages\": {\"pack\": " << r.stages[0] << ", \"exchange\": " << r.stages[1]
        << ", \"unpack\": " << r.stages[2] << ", \"plan\": " << r.plan_seconds << "}, \"seconds\": {";
    std::size_t k = 0;
    for (const auto& [method, s] : r.seconds) out << (k++ ? ", " : "") << "\"" << method << "\": " << s;
    out << "}}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "]}\n";
}

int run(int argc, char** argv) {
  std::vector<index_t> sizes{1024, 2048, 4096, 8192};
  index_t cube = 256;
  int reps = 10;
  std::string json, svg, only;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw UsageError("option '" + key + "' needs a value");
    const std::string value = argv[i + 1];
    if (key == "--sizes")
      sizes = parse_sizes(value);
    else if (key == "--cube")
      cube = std::stol(value);
    else if (key == "--reps")
      reps = std::stoi(value);
    else if (key == "--cases")
      only = value;
    else if (key == "--json")
      json = value;
    else if (key == "--svg")
      svg = value;
    else
      throw UsageError("unknown option '" + key + "'");
  }
  if (reps < 1) throw UsageError("--reps must be at least 1");
  const int p = world_size();
  int ga = 1;  // near-square grid ga x gb
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) ga = d;
  const int gb = p / ga;
  struct Case2D {
    std::string name, from, to;
    Peers peers;
    bool transpose;  // row-major source, column-major destination (FFTW's TRANSPOSED order)
  };
  std::vector<Case2D> cases{
      {"transpose", "block,* on " + grid(p, 1), "*,block on " + grid(1, p), {false, true}, true}};
  const std::string sq = " on " + grid(ga, gb);
  for (auto [b1, b2] : {std::pair{1, 16}, {16, 64}, {64, 256}, {256, 1}}) {
    const std::string c1 = "cyclic(" + std::to_string(b1) + ")", c2 = "cyclic(" + std::to_string(b2) + ")";
    cases.push_back({"b" + std::to_string(b1) + "->b" + std::to_string(b2) + sq,
                     c1 + "," + c1 + sq,
                     c2 + "," + c2 + sq,
                     {true, false},
                     false});
  }
  // Grid changes of 64 x 64 blocks, the last between grids of different sizes.
  const std::vector<std::pair<std::string, std::string>> grids =
      p == 4
          ? std::vector<std::pair<std::string, std::string>>{{"2x2", "1x4"}, {"4x1", "2x2"}, {"1x2", "2x2"}}
          : std::vector<std::pair<std::string, std::string>>{
                {grid(p, 1), grid(1, p)}, {grid(1, p), grid(p, 1)}, {"1x1", grid(1, p)}};
  for (const auto& [g1, g2] : grids)
    cases.push_back({"grid " + g1 + "->" + g2,
                     "cyclic(64),cyclic(64) on " + g1,
                     "cyclic(64),cyclic(64) on " + g2,
                     {true, false},
                     false});

  std::vector<Row> rows;
  for (index_t n : sizes)
    for (const Case2D& c : cases) {
      if (c.name.find(only) == std::string::npos) continue;
      const Index<2> shape{n, n};
      rows.push_back(c.transpose ? run_case<2, Right, Left>(c.name, c.from, c.to, shape, c.peers, reps)
                                 : run_case<2, Left, Left>(c.name, c.from, c.to, shape, c.peers, reps));
      if (world_rank() == 0) std::fprintf(stderr, "done %s %ld^2\n", c.name.c_str(), long(n));
    }
  const std::string pencil = "pencil 3-D";
  if (cube > 0 && pencil.find(only) != std::string::npos)
    rows.push_back(run_case<3, Right, Right>(
        pencil, "block,block,* on " + grid(ga, gb) + "x1",
        "block,*,block on " + std::to_string(ga) + "x1x" + std::to_string(gb), {cube, cube, cube}, {}, reps));
  if (world_rank() != 0) return 0;
  print(rows, p, reps);
  if (!json.empty()) write_json(json, rows, p, reps);
  if (!svg.empty()) {
    std::vector<compare::Point> points;
    for (const Row& r : rows)
      if (r.shape[2] == 1)  // the 3-D case has one size: in the table only
        for (const auto& [method, s] : r.seconds) points.push_back({r.name, method, double(r.elements), s});
    write_svg(svg,
              "distarray vs peers, " + std::to_string(p) + " ranks: time per redistribution (2-D doubles)",
              points);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  fftw_mpi_init();
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_compare: %s\n", e.what());
  }
  fftw_mpi_cleanup();
  return status;
}
