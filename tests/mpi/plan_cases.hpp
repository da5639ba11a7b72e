#pragma once
// The plan tests' cases: 2-D and 3-D layouts for p ranks (collapsed, block,
// block(m), cyclic, cyclic(b), grid shapes, grids that leave ranks out or
// start past rank 0) and the method x engine variants to run on each pair.

#include <distarray/redist/candidates.hpp>
#include <distarray/redist/plan_options.hpp>

#include <climits>
#include <string>
#include <utility>
#include <vector>

namespace distarray::testing {

/// AxB with A*B = n, A the largest divisor not above sqrt(n).
inline std::pair<int, int> near_square(int n) {
  int a = 1;
  for (int d = 1; d * d <= n; ++d)
    if (n % d == 0) a = d;
  return {a, n / a};
}

inline std::string grid2(int a, int b, int first = 0) {
  return std::to_string(a) + "x" + std::to_string(b) + (first ? "@" + std::to_string(first) : "");
}

/// 2-D layouts for `p` ranks: collapsed, block, block(m), cyclic, cyclic(b),
/// different grid shapes, grids that leave ranks out or start past rank 0.
inline std::vector<std::string> layouts_2d(int p, const Index<2>& shape) {
  const auto [a, b] = near_square(p);
  const int q = std::max(1, p - 1);
  const std::string bm0 = "block(" + std::to_string((shape[0] + b - 1) / b + 1) + ")";
  const std::string bm1 = "block(" + std::to_string((shape[1] + b - 1) / b + 2) + ")";
  return {"block,* on " + grid2(p, 1),
          "*,block on " + grid2(1, p),
          "cyclic,* on " + grid2(p, 1),
          "*,cyclic(3) on " + grid2(1, p),
          "block,block on " + grid2(a, b),
          "cyclic,cyclic on " + grid2(a, b),
          "cyclic(2)," + bm1 + " on " + grid2(a, b),
          bm0 + ",cyclic(3) on " + grid2(b, a),
          "cyclic(4),cyclic(2) on " + grid2(b, a),
          "block,cyclic on " + grid2(q, 1),
          "cyclic(3),block on " + grid2(1, q, p - q),
          "block,block on 1x1",
          "cyclic(5),* on " + grid2(p, 1)};
}

inline std::vector<std::string> layouts_3d(int p) {
  const auto [a, b] = near_square(p);
  const int q = std::max(1, p - 1);
  const std::string ab1 = std::to_string(a) + "x" + std::to_string(b) + "x1";
  return {"block,block,* on " + ab1,
          "block,*,block on " + std::to_string(a) + "x1x" + std::to_string(b),
          "*,block,cyclic on 1x" + std::to_string(a) + "x" + std::to_string(b),
          "cyclic,cyclic(2),cyclic(3) on " + ab1,
          "block,cyclic,* on " + std::to_string(p) + "x1x1",
          "cyclic(2),*,* on " + std::to_string(q) + "x1x1@" + std::to_string(p - q),
          "*,*,block on 1x1x" + std::to_string(p)};
}

struct Variant {
  RedistMethod method;
  ExchangeEngine exchange;
  std::size_t max_message_bytes = INT_MAX;
  int nodes = 1;  ///< emulated (EmulatedNodes): messages between "nodes" go by MPI
};

inline std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (RedistMethod m : {RedistMethod::direct, RedistMethod::indirect, RedistMethod::multiphase})
    for (ExchangeEngine e : {ExchangeEngine::alltoallv, ExchangeEngine::p2p, ExchangeEngine::encoded,
                             ExchangeEngine::datatype, ExchangeEngine::shared})
      v.push_back({m, e});
  v.push_back({RedistMethod::automatic, ExchangeEngine::alltoallv});
  // Messages split into 40-byte chunks: the large-count path at small sizes.
  v.push_back({RedistMethod::direct, ExchangeEngine::p2p, 40});
  v.push_back({RedistMethod::direct, ExchangeEngine::alltoallv, 40});
  // The shared engine on two "nodes": windows within each, MPI (in chunks) between.
  v.push_back({RedistMethod::direct, ExchangeEngine::shared, INT_MAX, 2});
  v.push_back({RedistMethod::multiphase, ExchangeEngine::shared, 40, 2});
  return v;
}

/// True when a multiphase route exists from `from` to `to`.
template <int D>
bool has_multiphase(const Layout<D>& from, const Layout<D>& to) {
  for (const auto& c : enumerate_candidates<D>(from, to))
    if (c.method == RedistMethod::direct && c.chain.size() > 2) return true;
  return false;
}

}  // namespace distarray::testing
