// distarray explain: every candidate strategy with its phases and modelled
// cost, the one `auto` picks, and the engine each of its exchanges takes and
// why — no data is allocated or moved.

#include "commands.hpp"
#include "storage_order_option.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/options.hpp>

#include <iostream>

namespace distarray::cli {

namespace {

template <int D>
void explain(const std::vector<index_t>& shape, const support::Options& args, std::size_t element_bytes,
             MPI_Comm comm) {
  Index<D> extents{};
  for (int d = 0; d < D; ++d) extents[d] = shape[std::size_t(d)];
  PlanOptions options;
  options.schedule = parse_schedule_method(args.text("schedule", "auto"));
  options.method = parse_redist_method(args.text("method", "auto"));
  options.allow_renumbering = args.has("renumber");
  if (args.has("ts")) options.ts = args.seconds("ts");
  if (args.has("te")) options.te = args.seconds("te");
  options.wisdom = args.text("wisdom", "");
  options.exchange = parse_exchange_engine(args.text("exchange", "auto"));
  // The plan's own decision (strategy.hpp), without building its copy tables.
  const Strategy<D> strategy = choose_strategy<D>(
      Layout<D>::parse(args.text("from", ""), extents), Layout<D>::parse(args.text("to", ""), extents), comm,
      options, element_bytes, Wisdom::for_options(options, comm).get());
  // The arrays of `distarray redist`: in the default execution space's memory.
  constexpr bool host_memory =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::string exchange = explain_exchange<D>(
      strategy, {storage_order_option(args, "from-order"), storage_order_option(args, "to-order")}, options,
      element_bytes, comm, host_memory);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) std::cout << strategy.explain() << exchange;
}

}  // namespace

int run_explain(int argc, char** argv, MPI_Comm comm) {
  const support::Options args(argc - 1, argv + 1,
                              {"shape", "type", "from", "to", "from-order", "to-order", "method", "schedule",
                               "ts", "te", "wisdom", "exchange"},
                              {"renumber"});
  if (!args.has("shape") || !args.has("from") || !args.has("to"))
    throw UsageError("explain needs --shape, --from and --to");
  const std::vector<index_t> shape = parse_shape(args.text("shape", ""));
  const std::size_t bytes = with_element_type(args.text("type", "f64"), []<class T>() { return sizeof(T); });
  switch (shape.size()) {
    case 1:
      explain<1>(shape, args, bytes, comm);
      break;
    case 2:
      explain<2>(shape, args, bytes, comm);
      break;
    case 3:
      explain<3>(shape, args, bytes, comm);
      break;
    default:
      throw UsageError("explain handles 1- to 3-dimensional shapes; --shape has " +
                       std::to_string(shape.size()));
  }
  return 0;
}

}  // namespace distarray::cli
