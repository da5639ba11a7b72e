#pragma once
// Plan: a redistribution from one layout to another, built once and executed
// many times (ADI and FFT loops repeat the same transposes), like an FFTW plan.
//
//   distarray::Plan<double, 2> plan(from, to, MPI_COMM_WORLD);   // collective
//   plan.execute(a, b);                                           // collective, repeatable
//
// SourceOrder and DestOrder are the storage orders of the two arrays' local
// blocks (Kokkos::LayoutRight or LayoutLeft); a column-major destination of
// (block,*) -> (*,block) receives the local transpose inside the unpack.
//
// direct:   one exchange; each message is the tensor product of the 1-D
//           schedules of every dimension.  Handles shape-changing layouts
//           ((block,*) -> (*,block)) and grids of different shapes and rank
//           ranges (producer/consumer, M:N).
// indirect: one 1-D redistribution per dimension that changes, each on the
//           sub-communicators of that grid dimension, through internal
//           intermediate blocks (Thakur et al. Sec. 6; same grid before and after).
// multiphase: a chain through intermediate block sizes (Kaushik et al.).
// auto (the default) picks the candidate of lowest modelled cost; explain()
// lists every candidate with its phases and cost.
// Buffers, copy tables and intermediate blocks live in the plan.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#endif

#include <distarray/core/dist_array.hpp>
#include <distarray/redist/candidates.hpp>
#include <distarray/redist/detail/plan_tables.hpp>
#include <distarray/redist/detail/step.hpp>
#include <distarray/redist/detail/unpack_header.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_PLAN
#endif

namespace distarray {

template <class T, int D, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space,
          class SourceOrder = Kokkos::LayoutRight, class DestOrder = Kokkos::LayoutRight>
class Plan {
 public:
  using source_type = DistArray<T, D, MemorySpace, SourceOrder>;
  using destination_type = DistArray<T, D, MemorySpace, DestOrder>;

  /// Collective over `comm`.  Throws (on every rank) ShapeMismatch for layouts
  /// of different global shapes, LayoutError for a grid larger than the
  /// communicator or an indirect plan between different grids.
  Plan(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options = {})
      : from_(from), to_(to), options_(options) {
    const double start = MPI_Wtime();
    validate(comm);
    model_ = cost_model_for(comm, options_.ts, options_.te);  // cached on the caller's communicator
    DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
    DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    candidates_ = enumerate_candidates<D>(from_, to_);
    if (options_.allow_renumbering)
      if (auto c = renumbered_candidate<D>(from_, to_, comm_)) candidates_.push_back(std::move(*c));
    evaluate_candidates<D>(candidates_, comm_, model_, sizeof(T), options_.schedule);
    chosen_ = choose();
    build(candidates_[chosen_]);
    report_.destination_ranks = candidates_[chosen_].destination_ranks;
    report_.method = candidates_[chosen_].name;
    report_.exchange = engine_names();
    report_.schedule = schedule_names();
    std::set<std::pair<std::size_t, int>> peers;  // (step, rank)
    for (std::size_t s = 0; s < steps_.size(); ++s) {
      steps_[s]->describe(report_);
      for (int p : steps_[s]->peers()) peers.insert({s, p});
    }
    report_.peers = int(peers.size());
    report_.steps = int(steps_.size());
    report_.plan_seconds = MPI_Wtime() - start;
  }

  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  ~Plan() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    grid_.reset();  // its communicators are derived from comm_
    if (destination_comm_ != MPI_COMM_NULL) MPI_Comm_free(&destination_comm_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  /// Moves `in` (layout from()) into `out` (layout to()).  Collective.
  void execute(const source_type& in, destination_type& out) {
    check_arrays(in, out);
    const T* src = in.local().data();
    T* dst = out.local().data();
    if (steps_.empty()) {  // the same mapping: local blocks are identical
      Kokkos::deep_copy(out.local(), in.local());
    } else {
      report_.pack_launches = report_.unpack_launches = 0;
      bool settled = true;
      for (std::size_t s = 0; s < steps_.size(); ++s) {
        T* target = s + 1 == steps_.size() ? dst : stages_[s].data();
        settled = settled && steps_[s]->settled();
        steps_[s]->execute(src, target, report_);
        src = target;
      }
      if (!settled) report_.exchange = engine_names();  // the automatic engine settles after a few executions
    }
    ++report_.executions;
  }

  /// Every candidate with its phases, messages, bytes and modelled cost, and the choice.
  std::string explain() const { return explain_candidates(candidates_, chosen_, model_); }
  const std::vector<Candidate<D>>& candidates() const { return candidates_; }
  const Candidate<D>& chosen() const { return candidates_[chosen_]; }

  const Layout<D>& from() const { return from_; }
  const Layout<D>& to() const { return to_; }
  const PlanOptions& options() const { return options_; }
  /// The communicator to create destination arrays on: the caller's ranks,
  /// renumbered when the plan chose a Kalns-Ni processor mapping.
  MPI_Comm destination_comm() const { return destination_comm_ != MPI_COMM_NULL ? destination_comm_ : comm_; }
  /// Plan shape and accumulated per-stage times of this rank.
  const PlanReport& report() const { return report_; }

 private:
  static constexpr StorageOrder source_order = storage_order_of<SourceOrder>();
  static constexpr StorageOrder destination_order = storage_order_of<DestOrder>();

  void validate(MPI_Comm comm) const {
    if (from_.shape() != to_.shape())
      throw ShapeMismatch("plan from '" + from_.to_string() + "' of shape " + shape_text(from_) + " to '" +
                          to_.to_string() + "' of shape " + shape_text(to_) + ": the global shapes differ");
    int size = 0;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(comm, &size));
    for (const Layout<D>* l : {&from_, &to_})
      if (l->grid().end_rank() > size)
        throw LayoutError("layout '" + l->to_string() + "' needs ranks up to " +
                          std::to_string(l->grid().end_rank() - 1) + " but the communicator has " +
                          std::to_string(size) + " ranks");
    if (options_.method == RedistMethod::indirect && !(from_.grid() == to_.grid()))
      throw LayoutError("the indirect method needs the same process grid before and after; '" +
                        from_.to_string() + "' and '" + to_.to_string() + "' differ (use the direct method)");
  }

  static std::string shape_text(const Layout<D>& l) {
    std::string s;
    for (int d = 0; d < D; ++d) s += (d ? "x" : "") + std::to_string(l.shape()[d]);
    return s;
  }

  /// What is wrong with array `a` for this plan, or nothing.
  template <class Array>
  std::string array_problem(const Array& a, const Layout<D>& expected, MPI_Comm comm,
                            const char* role) const {
    if (!(a.layout() == expected))
      return std::string("plan executed with a ") + role + " array of layout '" + a.layout().to_string() +
             "', but it was built for '" + expected.to_string() + "'";
    int relation = MPI_UNEQUAL;
    DISTARRAY_MPI_CHECK(MPI_Comm_compare(a.comm(), comm, &relation));
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT)
      return std::string("plan executed with a ") + role + " array on another communicator than the plan's" +
             (comm == destination_comm_ ? " (create it on Plan::destination_comm())" : "");
    return {};
  }

  /// Collective: a wrong array on any rank throws on every rank before any
  /// rank enters an exchange (where the others would wait for it forever).
  void check_arrays(const source_type& in, const destination_type& out) const {
    std::string problem = array_problem(in, from_, comm_, "source");
    if (problem.empty()) problem = array_problem(out, to_, destination_comm(), "destination");
    int ok = problem.empty();
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm_));
    if (!ok)
      throw ShapeMismatch(
          problem.empty() ? "plan executed with a wrong array on another rank; nothing was moved" : problem);
  }

  /// The candidate the options ask for: the cheapest overall (auto), of its
  /// kind (multiphase), or the named method.
  std::size_t choose() {
    const auto kind_of = [](const Candidate<D>& c) {
      return c.chain.size() > 2 && c.method == RedistMethod::direct ? RedistMethod::multiphase : c.method;
    };
    // Every rank reaches the same choice (and the same error): the costs are
    // reduced over the communicator and applicability depends on layouts only.
    const auto applicable = [this](std::size_t i) {
      if (!candidates_[i].inapplicable.empty()) throw ScheduleError(candidates_[i].inapplicable);
      return i;
    };
    if (!options_.candidate.empty()) {
      std::string names;
      for (std::size_t i = 0; i < candidates_.size(); ++i) {
        if (candidates_[i].name == options_.candidate) return applicable(i);
        names += "\n  " + candidates_[i].name;
      }
      throw UsageError("no candidate named '" + options_.candidate + "'; the candidates are:" + names);
    }
    if (options_.method == RedistMethod::automatic) return cheapest(candidates_);
    std::size_t best = candidates_.size();
    for (std::size_t i = 0; i < candidates_.size(); ++i)
      if (kind_of(candidates_[i]) == options_.method &&
          (best == candidates_.size() || candidates_[i].cost < candidates_[best].cost))
        best = i;
    if (best < candidates_.size()) return applicable(best);
    if (options_.method ==
        RedistMethod::indirect) {  // at most one dimension changes: one phase on its sub-communicators
      candidates_.push_back({"indirect", RedistMethod::indirect, {from_, to_}, {}, 0});
      evaluate_candidates<D>(candidates_, comm_, model_, sizeof(T), options_.schedule);
      return applicable(candidates_.size() - 1);
    }
    throw LayoutError("no multiphase route from '" + from_.to_string() + "' to '" + to_.to_string() +
                      "': it needs the same grid and a dimension whose block size changes");
  }

  /// Steps along the candidate's chain, with intermediate blocks between them.
  void build(const Candidate<D>& c) {
    if (c.method == RedistMethod::indirect) {
      grid_ = std::make_unique<ProcGrid<D>>(from_.grid(), comm_);
      if (!grid_->contains_me()) return;
    }
    const auto rank_in = [](const Layout<D>& l) {
      return [&l](const Coord<D>& x) { return l.grid().rank_of(x); };
    };
    const auto coord_in = [](const Layout<D>& l) {
      return [&l](int rank) { return *l.grid().coord_of(rank); };
    };
    // The dimension an indirect link moves (D: none; the link is skipped).
    const auto moved = [&c](std::size_t i) {
      int d = 0;
      while (d < D && c.chain[i].dist(d).same_mapping(c.chain[i + 1].dist(d))) ++d;
      return c.method == RedistMethod::indirect ? d : 0;
    };
    std::size_t last = 0;  // the link that writes the destination block
    for (std::size_t i = 0; i + 1 < c.chain.size(); ++i)
      if (moved(i) < D) last = i;
    for (std::size_t i = 0; i + 1 < c.chain.size(); ++i) {
      const Layout<D>& a = c.chain[i];
      const Layout<D>& b = c.chain[i + 1];
      // Intermediate blocks are row-major; the arrays have their own orders.
      const std::pair orders{steps_.empty() ? source_order : StorageOrder::row_major,
                             i == last ? destination_order : StorageOrder::row_major};
      if (c.method == RedistMethod::indirect) {
        const int d = moved(i);
        if (d == D) continue;  // nothing moves
        // On the sub-communicator along d, ranks are ordered by the coordinate along d.
        const auto along_d = [d](const Coord<D>& x) { return x[d]; };
        const auto at = [d, mine = *grid_->coord()](int rank) {
          Coord<D> x = mine;
          x[d] = rank;
          return x;
        };
        add_step(grid_->dim_comm(d), a, b, along_d, along_d, at, at, b.grid().coord_of(rank_), orders);
      } else if (!c.destination_ranks.empty()) {
        const auto& ranks = c.destination_ranks;
        add_step(
            comm_, a, b, rank_in(a),
            [&b, &ranks](const Coord<D>& x) { return detail::destination_rank<D>(b, ranks, x); }, coord_in(a),
            [&b, &ranks](int rank) { return *detail::destination_coord<D>(b, ranks, rank); },
            detail::destination_coord<D>(b, ranks, rank_), orders);
      } else {
        add_step(comm_, a, b, rank_in(a), rank_in(b), coord_in(a), coord_in(b), b.grid().coord_of(rank_),
                 orders);
      }
      const auto mine = detail::destination_coord<D>(b, c.destination_ranks, rank_);
      const MPI_Comm link_comm = c.method == RedistMethod::indirect ? grid_->dim_comm(moved(i)) : comm_;
      stages_.push_back(detail::agreed(link_comm, [&] {
        const index_t count = mine ? element_count(b.local_extents(*mine)) : 0;
        checked_bytes(count, sizeof(T));
        return detail::make_view<Kokkos::View<T*, MemorySpace>>("distarray::stage", Index<1>{count});
      }));
    }
    if (!stages_.empty()) stages_.pop_back();  // the last step writes the destination block
    if (!c.destination_ranks.empty()) {
      // Destination arrays live on a communicator where coordinate k of the
      // destination grid is the rank the mapping chose.
      int key = rank_;
      if (const auto mine = detail::destination_coord<D>(to_, c.destination_ranks, rank_))
        key = to_.grid().rank_of(*mine);
      DISTARRAY_MPI_CHECK(MPI_Comm_split(comm_, 0, key, &destination_comm_));
    }
  }

  /// One exchange from `from` to `to` over `comm`; rank_of / coord_of map grid
  /// coordinates of either layout to ranks of `comm` and back.
  template <class SrcRankOf, class DstRankOf, class SrcCoordOf, class DstCoordOf>
  void add_step(MPI_Comm comm, const Layout<D>& from, const Layout<D>& to, SrcRankOf src_rank_of,
                DstRankOf dst_rank_of, SrcCoordOf src_coord_of, DstCoordOf dst_coord_of,
                std::optional<Coord<D>> my_dst, std::pair<StorageOrder, StorageOrder> orders) {
    const bool encoded = options_.exchange == ExchangeEngine::encoded;
    // Agreed: a rank whose tables fail (memory) must not leave the others in the step's collectives.
    auto [send, recv] = detail::agreed(comm, [&] {
      return detail::exchange_tables<D>(from, to, from.grid().coord_of(rank_), my_dst, options_.schedule,
                                        src_rank_of, dst_rank_of, !encoded, orders);
    });
    const int tag = int(steps_.size());
    if (!encoded) {
      steps_.push_back(detail::make_step<T, MemorySpace>(comm, tag, send, recv, options_));
      return;
    }
    // Sender: each message's header holds the receiver's unpacking runs.
    std::vector<std::vector<index_t>> headers;
    for (const auto& m : send.messages) {
      const Coord<D> p = *from.grid().coord_of(rank_), q = dst_coord_of(m.rank);
      headers.emplace_back();
      for (int d = 0; d < D; ++d)
        detail::append_unpack_words(headers.back(), options_.schedule, from.dist(d), to.dist(d), p[d], q[d]);
    }
    // Receiver: the message's table from its header alone.
    auto decode = [from, to, my_dst, src_coord_of, orders](int source, const std::vector<index_t>& header) {
      const Coord<D> p = src_coord_of(source), q = *my_dst;
      std::array<PeerRuns, D> runs;
      std::array<const PeerRuns*, D> per_dim{};
      std::size_t pos = 0;
      for (int d = 0; d < D; ++d) {
        runs[d] = detail::read_unpack_words(header, pos, from.dist(d), to.dist(d), p[d], q[d]);
        per_dim[d] = &runs[d];
      }
      detail::CopyTable table;
      table.add_message<D>(source, per_dim, to.local_extents(q), orders.second,
                           detail::message_order(orders));
      return table;
    };
    steps_.push_back(
        detail::make_step<T, MemorySpace>(comm, tag, send, recv, options_, {std::move(headers), decode}));
  }

  /// The steps' exchange engines, e.g. "datatype" or "alltoallv,p2p".
  std::string engine_names() const {
    std::string s;
    for (const auto& step : steps_)
      if (s.find(step->engine()) == std::string::npos) s += (s.empty() ? "" : ",") + step->engine();
    return s.empty() ? std::string(to_string(options_.exchange)) : s;
  }

  std::string schedule_names() const {
    std::string s;
    for (int d = 0; d < D; ++d) {
      const ScheduleMethod m = options_.schedule == ScheduleMethod::automatic
                                   ? choose_schedule_method(from_.dist(d), to_.dist(d))
                                   : options_.schedule;
      s += (d ? "," : "") + std::string(to_string(m));
    }
    return s;
  }

  Layout<D> from_, to_;
  PlanOptions options_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm destination_comm_ = MPI_COMM_NULL;  // renumbered destinations only
  int rank_ = 0;
  CostModel model_;
  std::vector<Candidate<D>> candidates_;
  std::size_t chosen_ = 0;
  std::unique_ptr<ProcGrid<D>> grid_;  // indirect: the grid's sub-communicators
  std::vector<std::unique_ptr<detail::Step>> steps_;
  std::vector<Kokkos::View<T*, MemorySpace>> stages_;  // intermediate local blocks between steps
  PlanReport report_;
};

/// A new array of layout `to` holding `in`'s elements (builds a one-off plan).
template <class T, int D, class MemorySpace, class Order>
DistArray<T, D, MemorySpace, Order> redistribute(const DistArray<T, D, MemorySpace, Order>& in,
                                                 const Layout<D>& to, const PlanOptions& options = {}) {
  Plan<T, D, MemorySpace, Order, Order> plan(in.layout(), to, in.comm(), options);
  DistArray<T, D, MemorySpace, Order> out(to, plan.destination_comm());  // renumbered ranks, if chosen
  plan.execute(in, out);
  return out;
}

}  // namespace distarray
