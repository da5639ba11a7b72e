// distarray explain: every candidate strategy with its phases and modelled
// cost, and the one `auto` picks — no data is allocated or moved.

#include "args.hpp"
#include "commands.hpp"
#include "element_pattern.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>

#include <iostream>

namespace distarray::cli {

namespace {

template <int D>
void explain(const std::vector<index_t>& shape, const Args& args, std::size_t element_bytes, MPI_Comm comm) {
  Index<D> extents{};
  for (int d = 0; d < D; ++d) extents[d] = shape[std::size_t(d)];
  const auto from = Layout<D>::parse(args.get("from", ""), extents);
  const auto to = Layout<D>::parse(args.get("to", ""), extents);
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  for (const Layout<D>* l : {&from, &to})
    if (l->grid().end_rank() > size)
      throw LayoutError("layout '" + l->to_string() + "' needs ranks up to " +
                        std::to_string(l->grid().end_rank() - 1) + " but the communicator has " +
                        std::to_string(size) + " ranks");
  std::optional<double> ts, te;
  if (args.has("ts")) ts = args.get_seconds("ts");
  if (args.has("te")) te = args.get_seconds("te");
  const CostModel model = cost_model_for(comm, ts, te);
  auto candidates = enumerate_candidates<D>(from, to);
  const ScheduleMethod method = parse_schedule_method(args.get("schedule", "auto"));
  if (args.has("renumber"))
    if (auto c = renumbered_candidate<D>(from, to, comm)) candidates.push_back(std::move(*c));
  evaluate_candidates<D>(candidates, comm, model, element_bytes, method);
  if (rank == 0) std::cout << explain_candidates(candidates, cheapest(candidates), model);
}

}  // namespace

int run_explain(int argc, char** argv, MPI_Comm comm) {
  const Args args(argc, argv, 2, {"shape", "type", "from", "to", "schedule", "ts", "te"}, {"renumber"});
  if (!args.has("shape") || !args.has("from") || !args.has("to"))
    throw UsageError("explain needs --shape, --from and --to");
  const std::vector<index_t> shape = parse_shape(args.get("shape", ""));
  const std::size_t bytes = with_element_type(args.get("type", "f64"), []<class T>() { return sizeof(T); });
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
