// PlanLogic (plan_logic.hpp): the steps of the chosen chain and this rank's
// copy tables for each (ARCHITECTURE Sec. 4.4).

#include "detail/dimensions.hpp"
#include "same_arguments.hpp"
#include "schedule/unpack_header.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/redist/detail/tables/plan_tables.hpp>
#include <distarray/redist/plan_logic.hpp>

#include <tuple>

namespace distarray {

namespace {

/// How one step's communicator numbers the grid coordinates of its two layouts.
template <int D>
struct Numbering {
  int along = -1;               ///< indirect: the sub-communicator along this dimension, ranked by coordinate
  Coord<D> mine{};              ///< indirect: this rank's coordinate (the others share it off `along`)
  std::vector<int> renumbered;  ///< Kalns-Ni destination ranks, or empty for the layout's own

  int source_rank(const Layout<D>& a, const Coord<D>& x) const {
    return along >= 0 ? x[along] : a.grid().rank_of(x);
  }
  int destination_rank(const Layout<D>& b, const Coord<D>& x) const {
    return along >= 0 ? x[along] : detail::destination_rank<D>(b, renumbered, x);
  }
  Coord<D> source_coord(const Layout<D>& a, int rank) const {
    return along >= 0 ? on_line(rank) : *a.grid().coord_of(rank);
  }
  Coord<D> destination_coord(const Layout<D>& b, int rank) const {
    return along >= 0 ? on_line(rank) : *detail::destination_coord<D>(b, renumbered, rank);
  }

 private:
  Coord<D> on_line(int rank) const {
    Coord<D> x = mine;
    x[along] = rank;
    return x;
  }
};

/// Hsu-Chung message encoding: each send message's header holds the
/// receiver's unpacking runs; a receiver rebuilds its table from a header alone.
template <int D>
detail::EncodedMessages encoding_of(const Layout<D>& a, const Layout<D>& b, const Numbering<D>& n,
                                    const detail::CopyTable& send, const std::optional<Coord<D>>& src,
                                    const std::optional<Coord<D>>& dst, ScheduleMethod method,
                                    std::pair<StorageOrder, StorageOrder> orders) {
  detail::EncodedMessages e;
  for (const auto& m : send.messages) {
    const Coord<D> q = n.destination_coord(b, m.rank);
    auto& header = e.headers.emplace_back();
    for (int d = 0; d < D; ++d)
      detail::append_unpack_words(header, method, a.dist(d), b.dist(d), (*src)[d], q[d]);
  }
  e.decode = [a, b, n, dst, orders](int source, const std::vector<index_t>& header) {
    const Coord<D> p = n.source_coord(a, source), q = *dst;
    std::array<PeerRuns, D> runs;
    std::array<const PeerRuns*, D> per_dim{};
    std::size_t pos = 0;
    for (int d = 0; d < D; ++d) {
      runs[d] = detail::read_unpack_words(header, pos, a.dist(d), b.dist(d), p[d], q[d]);
      per_dim[d] = &runs[d];
    }
    detail::CopyTable table;
    table.add_message<D>(source, per_dim, b.local_extents(q), orders.second, detail::message_order(orders));
    return table;
  };
  return e;
}

const char* order_name(StorageOrder o) { return o == StorageOrder::row_major ? "row-major" : "column-major"; }

/// Collective: UsageError on every rank unless every rank passed the same
/// layouts, element size, orders and options (same_arguments.hpp); then the
/// wisdom they name.  Both before any collective that depends on them.
template <int D>
std::shared_ptr<Wisdom> agreed_wisdom(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm,
                                      const PlanOptions& options, std::size_t element_bytes,
                                      std::pair<StorageOrder, StorageOrder> orders) {
  const auto layout = [](const Layout<D>& l) {
    return l.to_string() + " of shape " + extents_text(l.shape());
  };
  detail::agree_same_arguments(
      comm, "Plan",
      {{"the source layout", layout(from)},
       {"the destination layout", layout(to)},
       {"the element size", std::to_string(element_bytes) + " bytes"},
       {"the storage orders", std::string(order_name(orders.first)) + " -> " + order_name(orders.second)},
       {"the plan options", to_string(options)},
       {"the wisdom file", "'" + Wisdom::path_for(options) + "'"}});
  return Wisdom::for_options(options, comm);
}

}  // namespace

template <int D>
PlanLogic<D>::PlanLogic(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options,
                        std::size_t element_bytes, std::pair<StorageOrder, StorageOrder> orders)
    : from_(from),
      to_(to),
      options_(options),
      wisdom_(agreed_wisdom(from, to, comm, options, element_bytes, orders)),
      strategy_(choose_strategy<D>(from, to, comm, options, element_bytes, wisdom_.get())) {
  const int rank = detail::rank_of(comm), ranks = detail::ranks_of(comm);
  // Agreed: a rank whose tables fail (memory) must not leave the others to
  // build executors alone.  One agreement for all steps, over every rank:
  // an indirect plan's ranks outside the grid have no steps, but agree too.
  steps_ = detail::agreed(comm, [&] { return build_steps(rank, ranks, orders, element_bytes); });
}

template <int D>
std::vector<StepLogic> PlanLogic<D>::build_steps(int rank, int ranks,
                                                 std::pair<StorageOrder, StorageOrder> orders,
                                                 std::size_t element_bytes) const {
  const Candidate<D>& c = strategy_.candidate();
  const bool indirect = c.method == RedistMethod::indirect;
  const auto on_grid = from_.grid().coord_of(rank);  // indirect steps run along the source grid's lines
  std::vector<StepLogic> steps;
  if (indirect && !on_grid) return steps;
  std::string plan_text = extents_text(
      from_.shape());  // what, besides ranks, element size and step, an engine decision depends on
  plan_text += "\t" + from_.to_string() + "\t" + to_.to_string() + "\t" + order_name(orders.first) + "," +
               order_name(orders.second) + "\t" + c.name;
  // The dimension an indirect link moves (D: none, the link is skipped); 0 for the other methods.
  const auto moved = [&c, indirect](std::size_t i) {
    int d = 0;
    while (d < D && c.chain[i].dist(d).same_mapping(c.chain[i + 1].dist(d))) ++d;
    return indirect ? d : 0;
  };
  std::size_t last = 0;  // the link that writes the destination block
  for (std::size_t i = 0; i + 1 < c.chain.size(); ++i)
    if (moved(i) < D) last = i;
  const bool encoded = options_.exchange == ExchangeEngine::encoded;
  for (std::size_t i = 0; i + 1 < c.chain.size(); ++i) {
    const int d = moved(i);
    if (d == D) continue;
    const Layout<D>& a = c.chain[i];
    const Layout<D>& b = c.chain[i + 1];
    Numbering<D> n;
    if (indirect)
      n = {d, *on_grid, {}};
    else
      n.renumbered = c.destination_ranks;
    const auto step_orders = detail::phase_orders(steps.empty(), i == last, orders);
    StepLogic& s = steps.emplace_back();
    s.line = indirect ? d : -1;
    s.tag = int(steps.size()) - 1;
    const auto src = a.grid().coord_of(rank);
    const auto dst = detail::destination_coord<D>(b, n.renumbered, rank);
    std::tie(s.send, s.recv) = detail::exchange_tables<D>(
        a, b, src, dst, options_.schedule, [&](const Coord<D>& x) { return n.source_rank(a, x); },
        [&](const Coord<D>& x) { return n.destination_rank(b, x); }, !encoded, step_orders);
    if (encoded) s.encoded = encoding_of<D>(a, b, n, s.send, src, dst, options_.schedule, step_orders);
    s.output_elements = dst ? element_count(b.local_extents(*dst)) : 0;
    // Steps on the plan's communicator decide their engine together, once per
    // plan: those decisions are kept (an indirect step's lines may differ).
    if (!indirect) s.engine_key = engine_key(ranks, element_bytes, plan_text, s.tag);
  }
  return steps;
}

template <int D>
void PlanLogic<D>::release_tables() {
  for (StepLogic& s : steps_) s.send = s.recv = detail::CopyTable{}, s.encoded = {};
}

namespace {

/// ShapeMismatch when an array of `layout` is not of the `expected` layout of its side.
template <int D>
void check_layout(const Layout<D>& layout, const Layout<D>& expected, const char* role) {
  if (!(layout == expected))
    throw ShapeMismatch(std::string("plan executed with a ") + role + " array of layout '" +
                        layout.to_string() + "', but it was built for '" + expected.to_string() + "'");
}

}  // namespace

template <int D>
void PlanLogic<D>::check_layouts(const Layout<D>& source, const Layout<D>& destination) const {
  check_layout(source, from_, "source");
  check_layout(destination, to_, "destination");
}

template <int D>
std::string PlanLogic<D>::schedule_names() const {
  std::string s;
  for (int d = 0; d < D; ++d) {
    const ScheduleMethod m = options_.schedule == ScheduleMethod::automatic
                                 ? choose_schedule_method(from_.dist(d), to_.dist(d))
                                 : options_.schedule;
    s += (d ? "," : "") + std::string(to_string(m));
  }
  return s;
}

#define DISTARRAY_PLAN_LOGIC(D) template class PlanLogic<D>;
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_PLAN_LOGIC)

}  // namespace distarray
