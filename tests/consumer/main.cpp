// A downstream program built against the installed distarray package.
#include <distarray/core.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  using distarray::Index;
  const auto layout = distarray::Layout<2>::parse("cyclic(2),* on 1x1", {5, 3});
  distarray::DistArray<double, 2> a(layout, MPI_COMM_WORLD);
  a.fill([](const Index<2>& g) { return double(g[0] * 3 + g[1]); });
  const std::vector<double> all = a.gather();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] != double(i)) {
      std::printf("consumer: element %zu is %g\n", i, all[i]);
      return 1;
    }
  std::printf("consumer: %s gathered correctly\n", layout.to_string().c_str());
  return 0;
}
