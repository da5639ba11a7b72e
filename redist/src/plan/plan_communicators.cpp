// PlanCommunicators (detail/exec/plan_communicators.hpp): the duplicates, lines and
// renumbered communicator a plan's steps run on.

#include "detail/dimensions.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/plan_communicators.hpp>

#include <utility>

namespace distarray::detail {

PlanCommunicators::PlanCommunicators(MPI_Comm caller) {
  DISTARRAY_MPI_CHECK(MPI_Comm_dup(caller, &comm_));
  try {
    DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN));
    DISTARRAY_MPI_CHECK(MPI_Comm_dup(comm_, &control_));
  } catch (...) {
    free();
    throw;
  }
}

// A delegating constructor: once the delegated one has returned, an
// exception here runs the destructor, which frees what was made.
template <int D>
PlanCommunicators::PlanCommunicators(MPI_Comm caller, const PlanLogic<D>& logic) : PlanCommunicators(caller) {
  const Candidate<D>& c = logic.strategy().candidate();
  const int rank = rank_of(comm_);
  if (c.method == RedistMethod::indirect) {
    // The ranks that differ from this one only along dimension d, ranked by
    // coordinate d: StepLogic's numbering of an indirect step.
    const GridShape<D>& g = logic.from().grid();
    const auto mine = g.coord_of(rank);
    for (int d = 0; d < D; ++d)
      DISTARRAY_MPI_CHECK(MPI_Comm_split(comm_, mine ? g.line_of(*mine, d) : MPI_UNDEFINED,
                                         mine ? (*mine)[d] : 0, &lines_.emplace_back(MPI_COMM_NULL)));
  }
  if (!c.destination_ranks.empty()) {
    // Destination arrays live on a communicator where coordinate k of the
    // destination grid is the rank the mapping chose.
    const Layout<D>& to = logic.to();
    int key = rank;
    if (const auto coord = destination_coord<D>(to, c.destination_ranks, rank))
      key = to.grid().rank_of(*coord);
    DISTARRAY_MPI_CHECK(MPI_Comm_split(comm_, 0, key, &destination_));
  }
}

PlanCommunicators& PlanCommunicators::operator=(PlanCommunicators&& other) noexcept {
  if (this != &other) {
    free();
    take(other);
  }
  return *this;
}

void PlanCommunicators::take(PlanCommunicators& other) noexcept {
  comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
  control_ = std::exchange(other.control_, MPI_COMM_NULL);
  destination_ = std::exchange(other.destination_, MPI_COMM_NULL);
  lines_ = std::move(other.lines_);
  other.lines_.clear();
}

void PlanCommunicators::free() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (MPI_Comm& c : lines_)
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  lines_.clear();
  for (MPI_Comm* c : {&destination_, &control_, &comm_})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

namespace {

bool same_ranks(MPI_Comm a, MPI_Comm b) {
  int relation = MPI_UNEQUAL;
  DISTARRAY_MPI_CHECK(MPI_Comm_compare(a, b, &relation));
  return relation == MPI_IDENT || relation == MPI_CONGRUENT;
}

}  // namespace

void PlanCommunicators::check_arrays(MPI_Comm source, MPI_Comm destination) const {
  if (!same_ranks(source, comm_))
    throw ShapeMismatch("plan executed with a source array on another communicator than the plan's");
  if (!same_ranks(destination, this->destination()))
    throw ShapeMismatch(
        "plan executed with a destination array on another communicator than the plan's" +
        std::string(destination_ != MPI_COMM_NULL ? " (create it on Plan::destination_comm())" : ""));
}

#define DISTARRAY_PLAN_COMMUNICATORS(D) \
  template PlanCommunicators::PlanCommunicators(MPI_Comm, const PlanLogic<D>&);
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_PLAN_COMMUNICATORS)

}  // namespace distarray::detail
