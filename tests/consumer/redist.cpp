// A downstream program that links distarray::redist alone.
#include <distarray/core.hpp>
#include <distarray/redist.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  using distarray::Index;
  const auto from = distarray::Layout<2>::parse("block,* on 1x1", {6, 4});
  const auto to = distarray::Layout<2>::parse("*,cyclic on 1x1", {6, 4});
  distarray::DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return double(g[0] * 4 + g[1]); });
  distarray::Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  plan.execute(a, b);
  const std::vector<double> all = b.gather();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] != double(i)) return std::printf("consumer_redist: element %zu is %g\n", i, all[i]), 1;
  std::printf("consumer_redist: redistributed correctly\n");
  return 0;
}
