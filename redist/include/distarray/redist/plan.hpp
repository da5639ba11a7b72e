#pragma once
// Plan: a redistribution from one layout to another, built once and executed
// many times (ADI and FFT loops repeat the same transposes), like an FFTW plan.
//
//   distarray::Plan<double, 2> plan(from, to, MPI_COMM_WORLD);   // collective
//   plan.execute(a, b);                                           // collective, repeatable
//
// direct:   one exchange; each message is the tensor product of the 1-D
//           schedules of every dimension.  Handles shape-changing layouts
//           ((block,*) -> (*,block)) and grids of different shapes and rank
//           ranges (producer/consumer, M:N).
// indirect: one 1-D redistribution per dimension that changes, each on the
//           sub-communicators of that grid dimension, through internal
//           intermediate blocks (Thakur et al. Sec. 6; same grid before and after).
// Buffers, copy tables and intermediate blocks live in the plan.

#include <distarray/core/dist_array.hpp>
#include <distarray/redist/detail/exchange_step.hpp>
#include <distarray/redist/detail/plan_tables.hpp>
#include <distarray/redist/detail/unpack_header.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace distarray {

template <class T, int D, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class Plan {
 public:
  using array_type = DistArray<T, D, MemorySpace>;

  /// Collective over `comm`.  Throws (on every rank) ShapeMismatch for layouts
  /// of different global shapes, LayoutError for a grid larger than the
  /// communicator or an indirect plan between different grids.
  Plan(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options = {})
      : from_(from), to_(to), options_(options) {
    const double start = MPI_Wtime();
    validate(comm);
    DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm, &comm_));
    DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    const RedistMethod method =
        options_.method == RedistMethod::automatic ? RedistMethod::direct : options_.method;
    if (method == RedistMethod::direct)
      build_direct();
    else
      build_indirect();
    report_.method = std::string(to_string(method));
    report_.exchange = std::string(to_string(options_.exchange));
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
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  /// Moves `in` (layout from()) into `out` (layout to()).  Collective.
  void execute(const array_type& in, array_type& out) {
    check_array(in, from_, "source");
    check_array(out, to_, "destination");
    const T* src = in.local().data();
    T* dst = out.local().data();
    if (steps_.empty()) {  // the same mapping: local blocks are identical
      Kokkos::deep_copy(out.local(), in.local());
    } else {
      for (std::size_t s = 0; s < steps_.size(); ++s) {
        T* target = s + 1 == steps_.size() ? dst : stages_[s].data();
        steps_[s]->execute(src, target, report_);
        src = target;
      }
    }
    ++report_.executions;
  }

  const Layout<D>& from() const { return from_; }
  const Layout<D>& to() const { return to_; }
  const PlanOptions& options() const { return options_; }
  /// Plan shape and accumulated per-stage times of this rank.
  const PlanReport& report() const { return report_; }

 private:
  using Step = detail::ExchangeStep<T, MemorySpace>;

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

  void check_array(const array_type& a, const Layout<D>& expected, const char* role) const {
    if (!(a.layout() == expected))
      throw ShapeMismatch(std::string("plan executed with a ") + role + " array of layout '" +
                          a.layout().to_string() + "', but it was built for '" + expected.to_string() + "'");
    int relation = MPI_UNEQUAL;
    DISTARRAY_MPI_CHECK(MPI_Comm_compare(a.comm(), comm_, &relation));
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT)
      throw ShapeMismatch(std::string("plan executed with a ") + role +
                          " array on another communicator than the plan's");
  }

  void build_direct() {
    const auto rank_in = [](const Layout<D>& l) {
      return [&l](const Coord<D>& c) { return l.grid().rank_of(c); };
    };
    const auto coord_in = [](const Layout<D>& l) {
      return [&l](int rank) { return *l.grid().coord_of(rank); };
    };
    add_step(comm_, from_, to_, rank_in(from_), rank_in(to_), coord_in(from_), coord_in(to_));
  }

  /// One exchange from `from` to `to` over `comm`; rank_of / coord_of map grid
  /// coordinates of either layout to ranks of `comm` and back.
  template <class SrcRankOf, class DstRankOf, class SrcCoordOf, class DstCoordOf>
  void add_step(MPI_Comm comm, const Layout<D>& from, const Layout<D>& to, SrcRankOf src_rank_of,
                DstRankOf dst_rank_of, SrcCoordOf src_coord_of, DstCoordOf dst_coord_of) {
    const bool encoded = options_.exchange == ExchangeEngine::encoded;
    auto [send, recv] =
        detail::exchange_tables<D>(from, to, rank_, options_.schedule, src_rank_of, dst_rank_of, !encoded);
    steps_.push_back(std::make_unique<Step>(comm, send, recv, options_));
    if (!encoded) return;
    // Sender: each message's header holds the receiver's unpacking runs.
    std::vector<std::vector<index_t>> headers;
    for (const auto& m : send.messages) {
      const Coord<D> p = *from.grid().coord_of(rank_), q = dst_coord_of(m.rank);
      headers.emplace_back();
      for (int d = 0; d < D; ++d)
        detail::append_unpack_words(headers.back(), options_.schedule, from.dist(d), to.dist(d), p[d], q[d]);
    }
    // Receiver: the message's table from its header alone.
    const int me = rank_;
    auto decode = [from, to, me, src_coord_of](int source, const std::vector<index_t>& header) {
      const Coord<D> p = src_coord_of(source), q = *to.grid().coord_of(me);
      std::array<PeerRuns, D> runs;
      std::array<const PeerRuns*, D> per_dim{};
      std::size_t pos = 0;
      for (int d = 0; d < D; ++d) {
        runs[d] = detail::read_unpack_words(header, pos, from.dist(d), to.dist(d), p[d], q[d]);
        per_dim[d] = &runs[d];
      }
      detail::CopyTable table;
      table.add_message<D>(source, per_dim, to.local_extents(q));
      return table;
    };
    steps_.back()->use_encoding(std::move(headers), decode);
  }

  // One step per changed dimension d, on the sub-communicator along d, whose
  // ranks are ordered by the coordinate along d.
  void build_indirect() {
    grid_ = std::make_unique<ProcGrid<D>>(from_.grid(), comm_);
    if (!grid_->contains_me()) return;
    Layout<D> current = from_;
    for (int d = 0; d < D; ++d) {
      if (current.dist(d).same_mapping(to_.dist(d))) continue;  // nothing moves along d
      std::array<Dist1D, D> dists = current.dists();
      dists[d] = to_.dist(d);
      const Layout<D> next(current.grid(), dists);
      const auto along_d = [d](const Coord<D>& c) { return c[d]; };
      const auto at = [d, mine = *grid_->coord()](int rank) {
        Coord<D> c = mine;
        c[d] = rank;
        return c;
      };
      add_step(grid_->dim_comm(d), current, next, along_d, along_d, at, at);
      stages_.push_back(detail::make_view<Kokkos::View<T*, MemorySpace>>(
          "distarray::stage", Index<1>{element_count(next.local_extents(*grid_->coord()))}));
      current = next;
    }
    if (!stages_.empty()) stages_.pop_back();  // the last step writes the destination block
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
  int rank_ = 0;
  std::unique_ptr<ProcGrid<D>> grid_;  // indirect: the grid's sub-communicators
  std::vector<std::unique_ptr<Step>> steps_;
  std::vector<Kokkos::View<T*, MemorySpace>> stages_;  // intermediate local blocks, indirect only
  PlanReport report_;
};

/// A new array of layout `to` holding `in`'s elements (builds a one-off plan).
template <class T, int D, class MemorySpace>
DistArray<T, D, MemorySpace> redistribute(const DistArray<T, D, MemorySpace>& in, const Layout<D>& to,
                                          const PlanOptions& options = {}) {
  DistArray<T, D, MemorySpace> out(to, in.comm());
  Plan<T, D, MemorySpace> plan(in.layout(), to, in.comm(), options);
  plan.execute(in, out);
  return out;
}

}  // namespace distarray
