// Peaceman-Rachford ADI for the 2-D heat equation u_t = u_xx + u_yy on the
// unit square, zero boundary values, u(0) = sin(pi x) sin(pi y), whose exact
// solution decays as exp(-2 pi^2 t).  N x N interior points, h = 1/(N+1),
// dt = h/2: the scheme is second order in h and dt, so the error falls 4x
// when N+1 doubles.
//
// Rows live in (block,*) and columns in (*,block); each half step solves
// tridiagonal systems along the local dimension (Thomas), and a persistent
// plan pair transposes between the half steps — the ADI pattern of Thakur et
// al. and Kaushik et al.  --fields F advances F independent fields (field f
// starts as f+1 times the mode): they go to columns in one batched transpose,
// and each field's way back overlaps the next field's solves (solver.hpp).
// Every line is solved whole on one rank, so the result is bit-for-bit the
// same on any number of ranks.
//
//   mpiexec -n 4 adi_heat [--n 128] [--fields 3] [--t-end 0.1] [--steps S]
//                         [--checkpoint FILE --checkpoint-every K] [--restart FILE]
//                         [--save FILE] [--compare FILE] [--convergence]
// --convergence runs N = 31, 63, 127 to t = 0.25 and fails unless the error
// falls at order >= 1.8.

#include "solver.hpp"

#include <distarray/io.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/options.hpp>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using adi::Array;
using adi::Solver;
using distarray::index_t;

struct Options {
  index_t n = 128;
  int fields = 3;
  double t_end = 0.1;
  long steps = -1;  // default: t_end / dt
  std::string checkpoint, restart, save, compare;
  long checkpoint_every = 0;
  bool convergence = false;
};

Options parse(int argc, char** argv) {
  const distarray::support::Options args(
      argc, argv,
      {"n", "fields", "t-end", "steps", "checkpoint", "checkpoint-every", "restart", "save", "compare"},
      {"convergence"});
  Options o;
  o.n = args.integer("n", o.n, 2);
  o.fields = int(args.integer("fields", o.fields, 1, INT_MAX));
  o.t_end = args.number("t-end", o.t_end);
  o.steps = long(args.integer("steps", o.steps));
  o.checkpoint = args.text("checkpoint");
  o.checkpoint_every = long(args.integer("checkpoint-every", o.checkpoint_every));
  o.restart = args.text("restart");
  o.save = args.text("save");
  o.compare = args.text("compare");
  o.convergence = args.has("convergence");
  return o;
}

/// The step count is kept beside the state, as a one-element array.
using StepArray = distarray::DistArray<std::int64_t, 1, Kokkos::HostSpace>;

std::string field_name(std::size_t f) { return "u" + std::to_string(f); }

/// Every field as u0, u1, ... in one file, with `step` beside them when given.
void write_fields(const std::string& path, Solver& s, long step) {
  distarray::CheckpointWriter w(path, MPI_COMM_WORLD);
  for (std::size_t f = 0; f < s.fields().size(); ++f) w.write(field_name(f), s.fields()[f]);
  StepArray count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
  count.fill([&](const distarray::Index<1>&) { return std::int64_t(step); });
  if (step >= 0) w.write("step", count);
  w.commit();
}

long read_checkpoint(const std::string& path, Solver& s) {
  StepArray count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
  distarray::restore(path, "step", count);
  std::int64_t step = count.local_size() ? count.local()(0) : 0;
  MPI_Bcast(&step, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  for (std::size_t f = 0; f < s.fields().size(); ++f) distarray::restore(path, field_name(f), s.fields()[f]);
  return long(step);
}

/// Elements of the fields that differ in their bits from those saved in `path`.
long differences(const std::string& path, Solver& s) {
  long differ = 0;
  for (std::size_t f = 0; f < s.fields().size(); ++f) {
    const Array& mine = s.fields()[f];
    Array other(mine.layout(), MPI_COMM_WORLD);
    distarray::restore(path, field_name(f), other);
    for (index_t i = 0; i < other.local_size(); ++i)
      differ += std::memcmp(&other.local().data()[i], &mine.local().data()[i], sizeof(double)) != 0;
  }
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return differ;
}

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int run(const Options& o) {
  if (o.convergence) {
    std::vector<double> errors;
    for (index_t n : {31, 63, 127}) {
      Solver s(n, o.fields);
      const long steps = std::lround(0.25 / s.dt());  // exact: dt = 1/(2(N+1))
      for (long k = 0; k < steps; ++k) s.step();
      errors.push_back(s.error(double(steps) * s.dt()));
      if (rank() == 0) std::printf("N = %3ld: %ld steps, max error %.3e\n", long(n), steps, errors.back());
    }
    bool ok = true;
    for (std::size_t k = 1; k < errors.size(); ++k) {
      const double order = std::log2(errors[k - 1] / errors[k]);
      if (rank() == 0) std::printf("observed order %.2f\n", order);
      ok = ok && order >= 1.8;
    }
    if (rank() == 0) std::printf("%s\n", ok ? "second-order convergence: ok" : "convergence order too low");
    return ok ? 0 : 1;
  }
  Solver s(o.n, o.fields);
  const long steps = o.steps >= 0 ? o.steps : std::lround(o.t_end / s.dt());
  long step = o.restart.empty() ? 0 : read_checkpoint(o.restart, s);
  if (rank() == 0 && !o.restart.empty())
    std::printf("restarted from %s at step %ld\n", o.restart.c_str(), step);
  const double start = MPI_Wtime();
  const long first = step;
  for (; step < steps; ++step) {
    s.step();
    if (!o.checkpoint.empty() && o.checkpoint_every > 0 && (step + 1) % o.checkpoint_every == 0)
      write_fields(o.checkpoint, s, step + 1);
  }
  const double elapsed = MPI_Wtime() - start;
  const double err = s.error(double(steps) * s.dt());
  if (rank() == 0)
    std::printf(
        "ADI heat: N = %ld, %d ranks, %d fields, steps %ld..%ld, dt = %.3e, max error %.3e, %.3f ms/step "
        "(%.0f%% "
        "in transposes)\n",
        long(o.n), adi::ranks(), o.fields, first, steps, s.dt(), err,
        1e3 * elapsed / double(std::max(1L, steps - first)),
        elapsed > 0 ? 100 * s.transpose_seconds() / elapsed : 0.0);
  if (!o.save.empty()) write_fields(o.save, s, -1);
  if (o.compare.empty()) return 0;
  const long differ = differences(o.compare, s);
  if (rank() == 0)
    std::printf("compared with %s: %s\n", o.compare.c_str(),
                differ == 0 ? "bit-for-bit equal" : (std::to_string(differ) + " elements differ").c_str());
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  try {
    return run(parse(argc, argv));
  } catch (const distarray::support::HelpAsked& help) {
    return distarray::support::print_usage("adi_heat", help);
  } catch (const distarray::Error& e) {
    if (rank() == 0) std::fprintf(stderr, "adi_heat: %s\n", e.what());
  } catch (const std::exception& e) {  // std::stol and friends on bad numbers
    if (rank() == 0) std::fprintf(stderr, "adi_heat: bad number in the arguments (%s)\n", e.what());
  }
  return 1;
}
