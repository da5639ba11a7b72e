// PlanLogic and choose_strategy (plan_logic.hpp, strategy.hpp): the untyped
// half of a plan, checked on its own at the rank count of the launch: the
// strategy is the plan's, the steps' tables cover every element once, the
// indirect steps run on the grid's sub-communicators, the encoded engine
// gets a header per message, and a copy of the logic is a plan of its own.

#include <distarray/redist/plan.hpp>
#include <distarray/support/element_pattern.hpp>

#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <type_traits>

namespace distarray {
namespace {

using testing::ranks_text;
using testing::world_size;

constexpr std::pair orders{StorageOrder::row_major, StorageOrder::row_major};

PlanOptions fixed_model(RedistMethod method = RedistMethod::automatic) {
  PlanOptions o;
  o.method = method;
  o.ts = 1e-5;  // a fixed model: the choice must not depend on a calibration under load
  o.te = 1e-9;
  return o;
}

index_t sum_over_ranks(index_t x) {
  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return x;
}

TEST(PlanLogic, StrategyIsThePlansChoice) {
  const Index<2> shape{37, 23};  // ragged at every rank count
  const auto from = Layout<2>::parse("cyclic(3),block on " + ranks_text() + "x1", shape);
  const auto to = Layout<2>::parse("cyclic(2),cyclic on " + ranks_text() + "x1", shape);
  for (RedistMethod m : {RedistMethod::automatic, RedistMethod::direct, RedistMethod::indirect}) {
    const Strategy<2> s = choose_strategy<2>(from, to, MPI_COMM_WORLD, fixed_model(m), sizeof(double));
    Plan<double, 2> plan(from, to, MPI_COMM_WORLD, fixed_model(m));
    EXPECT_EQ(s.candidate().name, plan.chosen().name) << to_string(m);
    EXPECT_EQ(s.explain(), plan.explain()) << to_string(m);
  }
}

TEST(PlanLogic, DirectStepTablesCoverEveryElementOnce) {
  const Index<2> shape{29, 31};
  const auto from = Layout<2>::parse("block,* on " + ranks_text() + "x1", shape);
  const auto to = Layout<2>::parse("*,cyclic(4) on 1x" + ranks_text(), shape);
  PlanLogic<2> logic(from, to, MPI_COMM_WORLD, fixed_model(RedistMethod::direct), sizeof(double), orders);
  ASSERT_EQ(logic.steps().size(), 1u);
  const StepLogic& step = logic.steps()[0];
  const int me = testing::world_rank();
  EXPECT_EQ(step.send.total, element_count(from.local_extents(*from.grid().coord_of(me))));
  EXPECT_EQ(step.recv.total, element_count(to.local_extents(*to.grid().coord_of(me))));
  EXPECT_EQ(step.output_elements, step.recv.total);
  EXPECT_EQ(sum_over_ranks(step.send.total), 29 * 31);
  EXPECT_EQ(sum_over_ranks(step.recv.total), 29 * 31);
  EXPECT_TRUE(step.encoded.headers.empty());
  logic.release_tables();
  EXPECT_TRUE(logic.steps()[0].send.messages.empty());
  EXPECT_EQ(logic.steps()[0].recv.total, 0);
}

TEST(PlanLogic, IndirectStepsRunOnTheGridsSubCommunicators) {
  const auto [p, q] =
      std::pair{world_size() % 2 == 0 ? 2 : 1, world_size() % 2 == 0 ? world_size() / 2 : world_size()};
  const std::string grid = " on " + std::to_string(p) + "x" + std::to_string(q);
  const Index<2> shape{19, 27};
  const auto from = Layout<2>::parse("block,block" + grid, shape);
  const auto to = Layout<2>::parse("cyclic,cyclic(2)" + grid, shape);
  PlanOptions o = fixed_model();
  o.candidate = "indirect(d0,d1)";
  PlanLogic<2> logic(from, to, MPI_COMM_WORLD, o, sizeof(double), orders);
  ASSERT_EQ(logic.steps().size(), 2u);
  const detail::PlanCommunicators comms(MPI_COMM_WORLD, logic);
  const int extents[2] = {p, q};
  const auto mine = from.grid().coord_of(testing::world_rank());
  for (int d = 0; d < 2; ++d) {
    const StepLogic& step = logic.steps()[std::size_t(d)];
    EXPECT_EQ(step.line, d);
    int size = 0, rank = -1;
    MPI_Comm_size(comms.of(step), &size);
    MPI_Comm_rank(comms.of(step), &rank);
    EXPECT_EQ(size, extents[d]) << "step " << d;
    EXPECT_EQ(rank, (*mine)[std::size_t(d)]) << "step " << d << ": a line is ranked by coordinate";
  }
  EXPECT_EQ(sum_over_ranks(logic.steps()[0].output_elements), 19 * 27);
}

static_assert(std::is_copy_constructible_v<PlanLogic<2>> && std::is_copy_assignable_v<PlanLogic<2>>);

TEST(PlanLogic, ACopyExecutesAsTheOriginal) {
  const Index<2> shape{23, 17};
  const auto from = Layout<2>::parse("cyclic(2),block on " + ranks_text() + "x1", shape);
  const auto to = Layout<2>::parse("block,cyclic(3) on 1x" + ranks_text(), shape);
  std::optional<PlanLogic<2>> original;
  original.emplace(from, to, MPI_COMM_WORLD, fixed_model(), sizeof(double), orders);
  const PlanLogic<2> copy = *original;
  original.reset();  // the copy owns everything it holds
  ASSERT_EQ(copy.steps().size(), 1u);
  const StepLogic& step = copy.steps()[0];
  EXPECT_EQ(step.line, -1);
  // The copy's tables, run through a step on communicators of their own, move every element.
  const detail::PlanCommunicators comms(MPI_COMM_WORLD, copy);
  auto run = detail::make_step<double, Kokkos::DefaultExecutionSpace::memory_space>(
      comms.of(step), step.tag, step.send, step.recv, copy.options(), step.encoded, {});
  DistArray<double, 2> a(from, MPI_COMM_WORLD), b(to, comms.destination());
  support::fill_pattern(a);
  PlanReport report;
  run.step->execute(a.local().data(), b.local().data(), report);
  EXPECT_EQ(support::pattern_mismatches(b), 0);
}

TEST(PlanLogic, EncodedStepsCarryAHeaderPerMessage) {
  const auto from = Layout<1>::parse("cyclic(6) on " + ranks_text(), {100});
  const auto to = Layout<1>::parse("cyclic(2) on " + ranks_text(), {100});
  PlanOptions o = fixed_model(RedistMethod::direct);
  o.exchange = ExchangeEngine::encoded;
  PlanLogic<1> logic(from, to, MPI_COMM_WORLD, o, sizeof(double), orders);
  ASSERT_EQ(logic.steps().size(), 1u);
  const StepLogic& step = logic.steps()[0];
  EXPECT_EQ(step.encoded.headers.size(), step.send.messages.size());
  EXPECT_TRUE(step.recv.messages.empty());  // receivers decode headers
  // The decoder rebuilds, from my own header to myself, the message I keep.
  for (std::size_t i = 0; i < step.send.messages.size(); ++i)
    if (step.send.messages[i].rank == testing::world_rank())
      EXPECT_EQ(step.encoded.decode(testing::world_rank(), step.encoded.headers[i]).total,
                step.send.messages[i].count);
}

TEST(PlanLogic, ErrorsComeFromTheStrategy) {
  const auto from = Layout<1>::parse("block on " + ranks_text(), {10});
  const auto to = Layout<1>::parse("cyclic on " + ranks_text(), {11});
  EXPECT_THROW(PlanLogic<1>(from, to, MPI_COMM_WORLD, fixed_model(), 8, orders), ShapeMismatch);
  const auto too_big = Layout<1>::parse("cyclic on " + std::to_string(world_size() + 1), {10});
  EXPECT_THROW(choose_strategy<1>(from, too_big, MPI_COMM_WORLD, fixed_model(), 8), LayoutError);
}

}  // namespace
}  // namespace distarray
