// The automatic engine: on the first executions, on the caller's data (the
// result is the same either way), a warm-up with packing, then datatypes and
// packing in turn, twice; the faster (best of two, slowest rank) stays, the
// buffers of the sides datatypes move in place are freed, and the decision
// is handed on (to the plan's wisdom, if it has one).  A measuring execution
// completes inside start, even when started non-blocking.
//
// The choice is watched: the time of each later execution inside the
// engine (not the caller's work between start and wait) goes into a window
// of the last watch_window; when it is full, the ranks agree on its median
// (slowest rank) at the next start, and where that is more than
// switch_ratio times the runner-up's measured time, both engines are
// measured again and the faster stays.  A busy machine slows the engines
// unequally (Open MPI moves non-contiguous datatypes in small fragments,
// each a round trip that waits for the scheduler: 28x alltoallv's time on
// one 2-rank transpose while a compile shared the cores), and a plan must
// not stay on the slower one for its whole life.

#include "exchange.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <algorithm>
#include <array>

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
    if (state_ == State::decided) watch();
    completed_in_start_ = state_ == State::measuring;
    const double started = MPI_Wtime();
    if (!completed_in_start_) {
      trial_[chosen_]->start(blocks, report);
      inside_ = MPI_Wtime() - started;
      return;
    }
    Exchange& trial = *trial_[trials_ % 2];
    trial.start(blocks, report);
    trial.wait(blocks, report);
    measured(MPI_Wtime() - started);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    if (completed_in_start_) return true;
    const double started = MPI_Wtime();
    const bool done = trial_[chosen_]->test(blocks, report);
    inside_ += MPI_Wtime() - started;
    if (done) completed();
    return done;
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    if (completed_in_start_) return;
    const double started = MPI_Wtime();
    trial_[chosen_]->wait(blocks, report);
    inside_ += MPI_Wtime() - started;
    completed();
  }

  std::string name() const override {
    return state_ == State::measuring ? "auto(measuring)" : trial_[chosen_]->name();
  }
  bool settled() const override { return state_ == State::decided; }

 private:
  enum class State { measuring, decided };
  static constexpr int trial_count = 5;  // a warm-up, then each engine twice
  static constexpr int watch_window = 8;
  static constexpr double switch_ratio = 1.5;

  /// Records a trial's seconds; after the last, keeps the faster engine.
  void measured(double seconds) {
    const int t = trials_ % 2;  // 0: packed (the warm-up too), 1: typed
    if (trials_ > 0) best_[t] = trials_ <= 2 ? seconds : std::min(best_[t], seconds);
    if (++trials_ < trial_count) return;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, best_, 2, MPI_DOUBLE, MPI_MAX, shape_.comm));
    state_ = State::decided;
    chosen_ = best_[1] < best_[0] ? 1 : 0;
    watched_ = 0;
    if (chosen_ == 1) buffers_.hold_buffers(!send_typed_, !recv_typed_);
    if (decided_) decided_(chosen_ == 1 ? ExchangeEngine::datatype : ExchangeEngine::alltoallv);
  }

  /// A watched execution completed in `inside_` seconds.
  void completed() { window_[std::size_t(watched_++ % watch_window)] = inside_; }

  /// At a start after every watch_window watched executions: the median of
  /// the window, slowest rank, against the runner-up (collective).  Measures
  /// both engines again (no warm-up) where the chosen one has fallen behind.
  void watch() {
    // (Every start follows a completed execution: no window is checked twice.)
    if (watched_ == 0 || watched_ % watch_window != 0) return;
    std::array<double, watch_window> w = window_;
    std::nth_element(w.begin(), w.begin() + watch_window / 2, w.end());
    double median = w[watch_window / 2];
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_MAX, shape_.comm));
    if (median <= switch_ratio * best_[1 - chosen_]) return;
    // Packing needs its buffers back (no rank alone may fail to allocate).
    agreed(shape_.comm, [&] { buffers_.hold_buffers(true, true); });
    state_ = State::measuring;
    trials_ = 1;
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::unique_ptr<Exchange> trial_[2];  // {packed, typed}
  bool send_typed_, recv_typed_;
  State state_ = State::measuring;
  int trials_ = 0, chosen_ = 0;
  double best_[2] = {0, 0};
  bool completed_in_start_ = false;
  double inside_ = 0;                          // the running execution's seconds inside the engine
  long watched_ = 0;                           // executions since the decision
  std::array<double, watch_window> window_{};  // their last watch_window times
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
