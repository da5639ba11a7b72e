// The automatic engine: on the first executions, on the caller's data (the
// result is the same either way), a warm-up with packing, then datatypes and
// packing in turn, twice; the faster (best of two, slowest rank) stays, the
// other engine's buffers or types are released, and the decision is handed
// on (to the plan's wisdom, if it has one).  A measuring execution completes
// inside start, even when started non-blocking.

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>

#include <algorithm>

namespace distarray::detail {

namespace {

class AutomaticExchange final : public Exchange {
 public:
  AutomaticExchange(const StepShape& shape, ExchangeBuffers& buffers, std::unique_ptr<Exchange> packed,
                    std::unique_ptr<Exchange> typed, bool send_typed, bool recv_typed,
                    std::function<void(ExchangeEngine)> decided)
      : shape_(shape),
        buffers_(buffers),
        trial_{std::move(packed), std::move(typed)},
        send_typed_(send_typed),
        recv_typed_(recv_typed),
        decided_(std::move(decided)) {}

  /// While measuring, an execution completes inside start (its time is
  /// the engine's alone, not the caller's work between start and wait).
  void start(const Blocks& blocks, PlanReport& report) override {
    completed_in_start_ = state_ == State::measuring;
    if (!completed_in_start_) return trial_[chosen_]->start(blocks, report);
    const double started = MPI_Wtime();
    Exchange& trial = *trial_[trials_ % 2];
    trial.start(blocks, report);
    trial.wait(blocks, report);
    measured(MPI_Wtime() - started);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    return completed_in_start_ || trial_[chosen_]->test(blocks, report);
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    if (!completed_in_start_) trial_[chosen_]->wait(blocks, report);
  }

  std::string name() const override {
    return state_ == State::measuring ? "auto(measuring)" : trial_[chosen_]->name();
  }
  bool settled() const override { return state_ == State::decided; }

 private:
  enum class State { measuring, decided };
  static constexpr int trial_count = 5;  // a warm-up, then each engine twice

  /// Records a trial's seconds; after the last, keeps the faster engine.
  void measured(double seconds) {
    const int t = trials_ % 2;  // 0: packed (the warm-up too), 1: typed
    if (trials_ > 0) best_[t] = trials_ <= 2 ? seconds : std::min(best_[t], seconds);
    if (++trials_ < trial_count) return;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, best_, 2, MPI_DOUBLE, MPI_MAX, shape_.comm));
    state_ = State::decided;
    chosen_ = best_[1] < best_[0] ? 1 : 0;
    trial_[1 - chosen_].reset();
    if (chosen_ == 1) buffers_.release(send_typed_, recv_typed_);
    if (decided_) decided_(chosen_ == 1 ? ExchangeEngine::datatype : ExchangeEngine::alltoallv);
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::unique_ptr<Exchange> trial_[2];  // {packed, typed}
  bool send_typed_, recv_typed_;
  State state_ = State::measuring;
  int trials_ = 0, chosen_ = 0;
  double best_[2] = {0, 0};
  bool completed_in_start_ = false;
  std::function<void(ExchangeEngine)> decided_;
};

}  // namespace

std::unique_ptr<Exchange> make_automatic_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                  std::unique_ptr<Exchange> packed,
                                                  std::unique_ptr<Exchange> typed, bool send_typed,
                                                  bool recv_typed,
                                                  std::function<void(ExchangeEngine)> decided) {
  return std::make_unique<AutomaticExchange>(shape, buffers, std::move(packed), std::move(typed), send_typed,
                                             recv_typed, std::move(decided));
}

}  // namespace distarray::detail
