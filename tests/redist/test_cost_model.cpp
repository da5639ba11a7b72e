#include <distarray/redist/plan.hpp>

#include "mpi/expect_agreed.hpp"
#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

namespace distarray {
namespace {

TEST(CostModel, OneRankFallsBackToDocumentedDefaults) {
  const CostModel m = cost_model_for(MPI_COMM_SELF);
  EXPECT_EQ(m.ts, CostModel::default_ts);
  EXPECT_EQ(m.te, CostModel::default_te);
  EXPECT_EQ(m.source, "defaults");
}

TEST(CostModel, CalibrationGivesSaneNumbersAndIsCached) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const CostModel a = cost_model_for(MPI_COMM_WORLD), b = cost_model_for(MPI_COMM_WORLD);
  EXPECT_EQ(a.ts, b.ts);  // the second call reads the cache: identical
  EXPECT_EQ(a.source, size > 1 ? "calibrated" : "defaults");
  EXPECT_GT(a.ts, 0.0);
  EXPECT_LT(a.ts, 1e-2);
  EXPECT_GE(a.te, 0.0);
  EXPECT_LT(a.te, 1e-6);
}

TEST(CostModel, OverridesAndTheirValidation) {
  const CostModel m = cost_model_for(MPI_COMM_WORLD, 1e-3, 2e-9);
  EXPECT_EQ(m.ts, 1e-3);
  EXPECT_EQ(m.te, 2e-9);
  EXPECT_EQ(m.source, "options");
  EXPECT_THROW(cost_model_for(MPI_COMM_WORLD, -1.0), Error);
  EXPECT_THROW(cost_model_for(MPI_COMM_WORLD, std::nullopt, std::nan("")), Error);
  setenv("DISTARRAY_TS", "5e-6", 1);
  EXPECT_EQ(cost_model_for(MPI_COMM_WORLD).ts, 5e-6);
  EXPECT_EQ(cost_model_for(MPI_COMM_WORLD).source, "environment");
  setenv("DISTARRAY_TS", "fast", 1);
  try {
    cost_model_for(MPI_COMM_WORLD);
    ADD_FAILURE() << "DISTARRAY_TS=fast accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("DISTARRAY_TS"), std::string::npos);
  }
  setenv("DISTARRAY_TS", "-1", 1);
  EXPECT_THROW(cost_model_for(MPI_COMM_WORLD), Error);
  unsetenv("DISTARRAY_TS");
  PlanOptions bad;
  bad.te = -2e-9;
  const auto l = Layout<1>::parse("block on 1", {10});
  EXPECT_THROW((Plan<double, 1>(l, l, MPI_COMM_WORLD, bad)), Error);
}

TEST(CostModel, OverridesThatDifferBetweenRanksAreRefusedOnEveryRank) {
  if (testing::world_size() < 2) GTEST_SKIP() << "needs two ranks";
  // Set on rank 0 alone, DISTARRAY_TS had the others calibrate alone (hung).
  setenv("DISTARRAY_TE", "1e-9", 1);
  if (testing::world_rank() == 0) setenv("DISTARRAY_TS", "5e-6", 1);
  testing::expect_agreed<UsageError>(
      "a variable on rank 0 alone", [] { cost_model_for(MPI_COMM_WORLD); },
      "the cost model: ranks disagree on the environment variable DISTARRAY_TS");
  unsetenv("DISTARRAY_TS");
  unsetenv("DISTARRAY_TE");
  testing::expect_agreed<UsageError>(
      "options", [] { cost_model_for(MPI_COMM_WORLD, testing::first_or(1e-6, 2e-6), 1e-9); },
      "the cost model: ranks disagree on ts (this rank: ");
}

// More time per message or per byte never makes a candidate cheaper.
TEST(CostModel, CandidateCostsAreMonotoneInTsAndTe) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const auto from = Layout<2>::parse("block,cyclic(2) on " + std::to_string(p) + "x1", {48, 40});
  const auto to = Layout<2>::parse("cyclic(3),cyclic on " + std::to_string(p) + "x1", {48, 40});
  auto candidates = enumerate_candidates<2>(from, to);
  ASSERT_GT(candidates.size(), 2u);
  std::vector<double> previous;
  for (double scale : {1.0, 2.0, 10.0}) {
    for (const auto& [ts, te] : {std::pair{1e-6 * scale, 1e-9}, std::pair{1e-6, 1e-9 * scale}}) {
      CostModel m;
      m.ts = ts;
      m.te = te;
      evaluate_candidates<2>(candidates, MPI_COMM_WORLD, m, 8, ScheduleMethod::automatic);
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (!previous.empty()) EXPECT_GE(candidates[i].cost, previous[i] * (1 - 1e-12)) << candidates[i].name;
      }
    }
    previous.clear();
    CostModel m;
    m.ts = 1e-6 * scale;
    m.te = 1e-9 * scale;
    evaluate_candidates<2>(candidates, MPI_COMM_WORLD, m, 8, ScheduleMethod::automatic);
    for (const auto& c : candidates) previous.push_back(c.cost);
  }
}

TEST(CostModel, ExplainListsEveryCandidateAndTheChoice) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const auto from = Layout<1>::parse("block on " + std::to_string(p), {96 * p});
  const auto to = Layout<1>::parse("cyclic(3) on " + std::to_string(p), {96 * p});
  PlanOptions o;
  o.ts = 1e-3;  // start-ups dominate: fewer messages per phase wins
  o.te = 1e-12;
  Plan<double, 1> plan(from, to, MPI_COMM_WORLD, o);
  const std::string text = plan.explain();
  EXPECT_NE(text.find("* "), std::string::npos) << text;
  for (const auto& c : plan.candidates()) EXPECT_NE(text.find(c.name), std::string::npos) << c.name;
  EXPECT_NE(text.find("ts = 0.001"), std::string::npos) << text;
  EXPECT_EQ(plan.report().method, plan.chosen().name);
  for (const auto& c : plan.candidates()) EXPECT_GE(c.cost, plan.chosen().cost);
}

}  // namespace
}  // namespace distarray

namespace distarray {
namespace {

// Kalns and Ni: from column blocks to a 2-D grid, the layout's numbering
// sends rank 1's columns elsewhere; renumbering the destination keeps them.
TEST(ProcessorMapping, RenumberedDestinationKeepsMoreDataAndIsCorrect) {
  int p = 1, me = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  int rows = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) rows = d;
  const Index<2> shape{12 * p, 12 * p};
  const auto from = Layout<2>::parse("*,block on 1x" + std::to_string(p), shape);
  const auto to =
      Layout<2>::parse("block,block on " + std::to_string(rows) + "x" + std::to_string(p / rows), shape);
  PlanOptions o;
  o.allow_renumbering = true;
  o.ts = 1e-6;
  o.te = 1e-9;  // bytes dominate: keeping data local pays
  Plan<double, 2> plan(from, to, MPI_COMM_WORLD, o);
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, plan.destination_comm());
  a.fill([&](const Index<2>& g) { return double(row_major_offset(g, shape)); });
  plan.execute(a, b);
  auto host = Kokkos::create_mirror_view(b.local());
  Kokkos::deep_copy(host, b.local());
  for (index_t i = 0; i < b.local_size(); ++i)
    ASSERT_EQ(host.data()[i],
              double(row_major_offset(b.global_index(row_major_index(i, b.local_extents())), shape)));
  const auto& ranks = plan.report().destination_ranks;
  if (rows == 1) {  // a 1xP destination: the layout's numbering is already the best
    EXPECT_TRUE(ranks.empty());
    return;
  }
  ASSERT_EQ(int(ranks.size()), p);
  // The rank holding destination coordinate c is the one the mapping chose.
  EXPECT_EQ(ranks[std::size_t(to.grid().rank_of(*b.grid().coord()))], me);
  Plan<double, 2> plain(from, to, MPI_COMM_WORLD);
  index_t kept[2] = {plan.report().bytes_local, plain.report().bytes_local};
  MPI_Allreduce(MPI_IN_PLACE, kept, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_GT(kept[0], kept[1]);
  EXPECT_NE(plan.explain().find("destination coordinate -> rank"), std::string::npos);
  // A destination array on the caller's communicator is refused, on every rank.
  DistArray<double, 2> wrong(to, MPI_COMM_WORLD);
  EXPECT_THROW(plan.execute(a, wrong), ShapeMismatch);
}

}  // namespace
}  // namespace distarray
