// choose_strategy (strategy.hpp): validation, candidates, costs, choice.

#include "detail/dimensions.hpp"

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/strategy.hpp>

namespace distarray {

namespace {

/// Errors that depend on the layouts and the communicator's size only (the same on every rank).
template <int D>
void validate(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm, const PlanOptions& options) {
  if (from.shape() != to.shape())
    throw ShapeMismatch("plan from '" + from.to_string() + "' of shape " + extents_text(from.shape()) +
                        " to '" + to.to_string() + "' of shape " + extents_text(to.shape()) +
                        ": the global shapes differ");
  int size = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_size(comm, &size));
  for (const Layout<D>* l : {&from, &to})
    if (l->grid().end_rank() > size)
      throw LayoutError("layout '" + l->to_string() + "' needs ranks up to " +
                        std::to_string(l->grid().end_rank() - 1) + " but the communicator has " +
                        std::to_string(size) + " ranks");
  if (options.method == RedistMethod::indirect && !(from.grid() == to.grid()))
    throw LayoutError("the indirect method needs the same process grid before and after; '" +
                      from.to_string() + "' and '" + to.to_string() + "' differ (use the direct method)");
}

/// The candidate the options ask for; may add the one-phase indirect
/// candidate (collective: it is costed like the others).
template <int D>
std::size_t choose(Strategy<D>& s, const Layout<D>& from, const Layout<D>& to, MPI_Comm comm,
                   const PlanOptions& options, std::size_t element_bytes) {
  auto& candidates = s.candidates;
  const auto kind_of = [](const Candidate<D>& c) {
    return c.chain.size() > 2 && c.method == RedistMethod::direct ? RedistMethod::multiphase : c.method;
  };
  // Every rank reaches the same choice (and the same error): the costs are
  // reduced over the communicator and applicability depends on layouts only.
  const auto applicable = [&candidates](std::size_t i) {
    if (!candidates[i].inapplicable.empty()) throw ScheduleError(candidates[i].inapplicable);
    return i;
  };
  if (!options.candidate.empty()) {
    std::string names;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].name == options.candidate) return applicable(i);
      names += "\n  " + candidates[i].name;
    }
    throw UsageError("no candidate named '" + options.candidate + "'; the candidates are:" + names);
  }
  if (options.method == RedistMethod::automatic) return cheapest(candidates);
  std::size_t best = candidates.size();
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (kind_of(candidates[i]) == options.method &&
        (best == candidates.size() || candidates[i].cost < candidates[best].cost))
      best = i;
  if (best < candidates.size()) return applicable(best);
  if (options.method ==
      RedistMethod::indirect) {  // at most one dimension changes: one phase on its sub-communicators
    candidates.push_back({"indirect", RedistMethod::indirect, {from, to}, {}, 0});
    evaluate_candidates<D>(candidates, comm, s.model, element_bytes, options.schedule);
    return applicable(candidates.size() - 1);
  }
  throw LayoutError("no multiphase route from '" + from.to_string() + "' to '" + to.to_string() +
                    "': it needs the same grid and a dimension whose block size changes");
}

}  // namespace

template <int D>
Strategy<D> choose_strategy(const Layout<D>& from, const Layout<D>& to, MPI_Comm comm,
                            const PlanOptions& options, std::size_t element_bytes, Wisdom* wisdom) {
  validate(from, to, comm, options);
  Strategy<D> s;
  s.model = cost_model_for(comm, options.ts, options.te, wisdom);  // cached on the caller's communicator
  s.candidates = enumerate_candidates<D>(from, to);
  if (options.allow_renumbering)
    if (auto c = renumbered_candidate<D>(from, to, comm)) s.candidates.push_back(std::move(*c));
  evaluate_candidates<D>(s.candidates, comm, s.model, element_bytes, options.schedule);
  s.chosen = choose(s, from, to, comm, options, element_bytes);
  return s;
}

#define DISTARRAY_STRATEGY(D)                                                                               \
  template Strategy<D> choose_strategy<D>(const Layout<D>&, const Layout<D>&, MPI_Comm, const PlanOptions&, \
                                          std::size_t, Wisdom*);
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_STRATEGY)

}  // namespace distarray
