// Batched executions: k = 1..5 arrays of a plan's layouts moved together,
// for every method and engine, against the oracle (array j holds the
// pattern plus j * 10^6, so a piece of one array landing in another is
// seen), blocking and under test() alone; ragged sizes, N < P, ranks that
// own nothing (the encoded engine moves a batch array by array); and the
// errors of mismatched arrays on every rank.

#include <distarray/redist/plan.hpp>

#include "mpi/pattern.hpp"
#include "mpi/throws.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace distarray {
namespace {

using testing::expect_throw_on_every_rank;
using testing::pattern_value;
using testing::ranks_text;

double value(const Index<2>& g, const Index<2>& shape, std::size_t j) {
  return pattern_value<double, 2>(g, shape) + 1e6 * double(j);
}

/// Elements of the k arrays that do not hold their array's values.
index_t wrong(const std::vector<DistArray<double, 2>>& arrays) {
  index_t bad = 0;
  for (std::size_t j = 0; j < arrays.size(); ++j) {
    const auto& b = arrays[j];
    const auto host = testing::host_block(b);
    for (index_t i = 0; i < b.local_size(); ++i)
      bad += host.data()[i] != value(b.global_index(b.local_index(i)), b.layout().shape(), j);
  }
  return bad;
}

std::vector<DistArray<double, 2>> arrays(const Layout<2>& l, std::size_t k, bool filled) {
  std::vector<DistArray<double, 2>> v;
  for (std::size_t j = 0; j < k; ++j) {
    v.emplace_back(l, MPI_COMM_WORLD);
    if (filled)
      v.back().fill([&](const Index<2>& g) { return value(g, l.shape(), j); });
    else
      Kokkos::deep_copy(v.back().local(), -1.0);
  }
  return v;
}

struct Pair {
  std::string from, to;
  Index<2> shape;
};

std::vector<Pair> pairs() {
  const std::string p = ranks_text();
  return {{"block,* on " + p + "x1", "*,cyclic(2) on 1x" + p, {19, 13}},           // transpose, ragged
          {"block,* on " + p + "x1", "cyclic(3),cyclic on " + p + "x1", {23, 7}},  // one grid: indirect
          {"block,block on 1x" + p, "cyclic(2),cyclic on " + p + "x1", {17, 10}},  // grid shapes change
          {"cyclic,* on 1x1", "block,cyclic(4) on " + p + "x1", {11, 9}},          // ranks that own nothing
          {"block,* on " + p + "x1", "*,block on 1x" + p, {3, 2}},                 // N < P
          // N < P on one grid (indirect applies), most ranks own nothing
          {"block,* on " + p + "x1", "cyclic,cyclic on " + p + "x1", {2, 5}}};
}

TEST(Batched, EveryMethodAndEngineAgainstTheOracle) {
  for (const Pair& pair : pairs()) {
    int plans = 0;
    const auto from = Layout<2>::parse(pair.from, pair.shape);
    const auto to = Layout<2>::parse(pair.to, pair.shape);
    for (RedistMethod m :
         {RedistMethod::automatic, RedistMethod::direct, RedistMethod::indirect, RedistMethod::multiphase})
      for (const auto [e, nodes] : {std::pair{ExchangeEngine::alltoallv, 1},
                                    {ExchangeEngine::datatype, 1},
                                    {ExchangeEngine::p2p, 1},
                                    {ExchangeEngine::encoded, 1},
                                    {ExchangeEngine::shared, 1},
                                    {ExchangeEngine::shared, 2}}) {
        PlanOptions o;
        o.method = m;
        o.exchange = e;
        std::optional<Plan<double, 2>> plan;
        try {
          const testing::EmulatedNodes emulated(nodes);
          plan.emplace(from, to, MPI_COMM_WORLD, o);
        } catch (const Error&) {  // the method does not apply to this pair (on every rank)
          continue;
        }
        ++plans;
        for (std::size_t k = 1; k <= 5; ++k) {
          SCOPED_TRACE("'" + pair.from + "' -> '" + pair.to + "' " + std::string(to_string(m)) + " " +
                       std::string(to_string(e)) + " on " + std::to_string(nodes) +
                       " node(s), k = " + std::to_string(k));
          const auto a = arrays(from, k, true);
          auto b = arrays(to, k, false);
          if (k % 2) {
            plan->execute(std::span(a), std::span(b));
          } else {
            Request request = plan->start(std::span(a), std::span(b));
            while (!request.test())
              std::this_thread::yield();  // ranks may outnumber cores: let the others progress
          }
          ASSERT_EQ(wrong(b), 0);
        }
        EXPECT_EQ(plan->report().executions, 5);
      }
    EXPECT_GE(plans, 8) << "automatic and direct apply to every pair, with every engine";
  }
}

// k changes from one execution to the next; single executions in between.
TEST(Batched, DifferentCountsOnOnePlan) {
  const Pair pair = pairs()[2];
  const auto from = Layout<2>::parse(pair.from, pair.shape);
  const auto to = Layout<2>::parse(pair.to, pair.shape);
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  for (std::size_t k : {3, 1, 5, 2, 3}) {
    const auto a = arrays(from, k, true);
    auto b = arrays(to, k, false);
    if (k == 1)
      plan.execute(a[0], b[0]);
    else
      plan.execute(std::span(a), std::span(b));
    ASSERT_EQ(wrong(b), 0) << "k = " << k;
  }
}

TEST(Batched, MismatchedArraysThrowOnEveryRank) {
  const Pair pair = pairs()[0];
  const auto from = Layout<2>::parse(pair.from, pair.shape);
  const auto to = Layout<2>::parse(pair.to, pair.shape);
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD);
  const auto a = arrays(from, 3, true);
  auto b = arrays(to, 2, false);
  expect_throw_on_every_rank([&] { plan.execute(std::span(a), std::span(b)); },
                             "3 source arrays but 2 destination arrays");
  auto mixed = arrays(to, 3, false);
  mixed[1] = DistArray<double, 2>(from, MPI_COMM_WORLD);  // the second destination has the source's layout
  expect_throw_on_every_rank([&] { plan.execute(std::span(a), std::span(mixed)); }, "built for");
  auto c = arrays(to, 3, false);
  plan.execute(std::span(a), std::span(c));  // and the plan still works
  EXPECT_EQ(wrong(c), 0);
}

}  // namespace
}  // namespace distarray
