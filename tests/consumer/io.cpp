// A downstream program that links distarray::io alone.
#include <distarray/core.hpp>
#include <distarray/io.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  distarray::Environment env(argc, argv);
  using distarray::Index;
  const auto layout = distarray::Layout<1>::parse("block on 1", {10});
  distarray::DistArray<double, 1> a(layout, MPI_COMM_WORLD);
  a.fill([](const Index<1>& g) { return double(g[0]); });
  distarray::save("consumer_io.h5", "u", a);
  distarray::DistArray<double, 1> b(layout, MPI_COMM_WORLD);
  distarray::restore("consumer_io.h5", "u", b);
  if (b.gather() != a.gather()) return std::printf("consumer_io: restored data differ\n"), 1;
  std::printf("consumer_io: saved and restored\n");
  return 0;
}
