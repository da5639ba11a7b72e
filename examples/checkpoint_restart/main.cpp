// A simulation that stops and resumes elsewhere: a field of independent
// damped oscillators (position and velocity arrays, symplectic Euler steps)
// whose state is checkpointed, the run stopped, and resumed on another number
// of ranks in another layout.  The resumed run ends bit-for-bit where an
// uninterrupted run ends.
//
//   mpiexec -n 4 checkpoint_restart --steps 200 --stop-at 80 --checkpoint state.h5
//   mpiexec -n 3 checkpoint_restart --steps 200 --resume state.h5 --final resumed.h5
//   mpiexec -n 2 checkpoint_restart --steps 200 --final straight.h5 --expect resumed.h5

#include <distarray/core.hpp>
#include <distarray/io.hpp>
#include <distarray/support/driver_main.hpp>
#include <distarray/support/options.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

using Field = distarray::DistArray<double, 2, Kokkos::HostSpace>;
using Counter = distarray::DistArray<std::int64_t, 1, Kokkos::HostSpace>;
constexpr distarray::index_t n = 96;

int ranks() {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

/// Each run picks its own layout: the checkpoint does not care.
distarray::Layout<2> layout() {
  const std::string p = std::to_string(ranks());
  return distarray::Layout<2>::parse(ranks() % 2 ? "cyclic(5),* on " + p + "x1" : "*,block on 1x" + p,
                                     {n, n});
}

struct State {
  Field x{layout(), MPI_COMM_WORLD}, v{layout(), MPI_COMM_WORLD};
  long step = 0;

  State() {
    x.fill([](const distarray::Index<2>& g) {
      return std::sin(0.1 * double(g[0])) * std::cos(0.07 * double(g[1]));
    });
  }

  void advance() {  // x'' = -k x - c x', stiffness and damping varying over the field
    for (distarray::index_t i = 0; i < x.local_size(); ++i) {
      const auto g = x.global_index(distarray::row_major_index(i, x.local_extents()));
      const double k = 1.0 + 0.01 * double(g[0]), c = 0.001 * double(g[1]), dt = 0.01;
      double& xi = x.local().data()[i];
      double& vi = v.local().data()[i];
      vi -= dt * (k * xi + c * vi);
      xi += dt * vi;
    }
    ++step;
  }

  void save(const std::string& path) const {
    Counter count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
    count.fill([&](const distarray::Index<1>&) { return std::int64_t(step); });
    distarray::CheckpointWriter w(path, MPI_COMM_WORLD);
    w.write("x", x);
    w.write("v", v);
    w.write("step", count);
    w.commit();
  }

  void load(const std::string& path) {
    Counter count(distarray::Layout<1>::parse("block on 1", {1}), MPI_COMM_WORLD);
    distarray::restore(path, "step", count);
    std::int64_t s = count.local_size() ? count.local()(0) : 0;
    MPI_Bcast(&s, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    step = long(s);
    distarray::restore(path, "x", x);
    distarray::restore(path, "v", v);
  }
};

int run(int argc, char** argv) {
  const distarray::support::Options args(argc, argv,
                                         {"steps", "stop-at", "checkpoint", "resume", "final", "expect"});
  const long steps = long(args.integer("steps", 200)), stop_at = long(args.integer("stop-at", -1));
  const std::string checkpoint = args.text("checkpoint"), resume = args.text("resume");
  const std::string final_path = args.text("final"), expect = args.text("expect");
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  State s;
  if (!resume.empty()) s.load(resume);
  if (me == 0)
    std::printf("%d ranks, layout %s, from step %ld\n", ranks(), layout().to_string().c_str(), s.step);
  while (s.step < steps) {
    s.advance();
    if (s.step == stop_at) {
      s.save(checkpoint);
      if (me == 0) std::printf("stopped at step %ld, state in %s\n", s.step, checkpoint.c_str());
      return 0;
    }
  }
  if (!final_path.empty()) s.save(final_path);
  if (expect.empty()) return 0;
  State other;
  other.load(expect);
  long differ = other.step != s.step;
  for (distarray::index_t i = 0; i < s.x.local_size(); ++i)
    differ += std::memcmp(&s.x.local().data()[i], &other.x.local().data()[i], sizeof(double)) != 0 ||
              std::memcmp(&s.v.local().data()[i], &other.v.local().data()[i], sizeof(double)) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    std::printf("step %ld: %s %s\n", s.step, differ ? "DIFFERS from" : "bit-for-bit equal to",
                expect.c_str());
  return differ ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  return distarray::support::driver_main("checkpoint_restart", argc, argv, run);
}
