// The automatic engine: on the first executions, on the caller's data (the
// result is the same either way), a warm-up with packing, then each
// contender in turn (packing, datatypes, the shared window: those the step
// can run), twice; the fastest (best of two, slowest rank) stays, the
// buffers it does not use are freed (and the shared windows, made at their
// first trial), and the decision is handed on (to the plan's wisdom, if it
// has one).  A measuring execution completes inside
// start, even when started non-blocking.
//
// The choice is watched: the time of each later execution inside the
// engine (not the caller's work between start and wait) goes into a window
// of the last watch_window; when it is full, the ranks agree on its median
// (slowest rank) at the next start, and where that is more than
// switch_ratio times the runner-up's measured time, every contender is
// measured again and the fastest stays.  A busy machine slows the engines
// unequally (Open MPI moves non-contiguous datatypes in small fragments,
// each a round trip that waits for the scheduler: 28x alltoallv's time on
// one 2-rank transpose while a compile shared the cores), and a plan must
// not stay on the slower one for its whole life.

#include "exchange.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <algorithm>
#include <array>
#include <limits>

namespace distarray::detail {

namespace {

class AutomaticExchange final : public Exchange {
 public:
  AutomaticExchange(const StepShape& shape, ExchangeBuffers& buffers, std::vector<Contender> contenders,
                    std::function<void(ExchangeEngine)> decided)
      : shape_(shape),
        buffers_(buffers),
        contenders_(std::move(contenders)),
        best_(contenders_.size(), 0),
        decided_(std::move(decided)) {}

  /// While measuring, an execution completes inside start (its time is
  /// the engine's alone, not the caller's work between start and wait).
  void start(const Blocks& blocks, PlanReport& report) override {
    if (state_ == State::decided) watch();
    completed_in_start_ = state_ == State::measuring;
    if (!completed_in_start_) {
      const double started = MPI_Wtime();
      chosen().start(blocks, report);
      inside_ = MPI_Wtime() - started;
      return;
    }
    Contender& c = contenders_[trial_contender()];
    if (!c.exchange) c.exchange = c.make();  // (every rank is at the same trial; not timed)
    Exchange& trial = *c.exchange;
    const double started = MPI_Wtime();
    trial.start(blocks, report);
    trial.wait(blocks, report);
    measured(MPI_Wtime() - started);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    if (completed_in_start_) return true;
    const double started = MPI_Wtime();
    const bool done = chosen().test(blocks, report);
    inside_ += MPI_Wtime() - started;
    if (done) completed();
    return done;
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    if (completed_in_start_) return;
    const double started = MPI_Wtime();
    chosen().wait(blocks, report);
    inside_ += MPI_Wtime() - started;
    completed();
  }

  std::string name() const override {
    return state_ == State::measuring ? "auto(measuring)" : chosen().name();
  }
  bool settled() const override { return state_ == State::decided; }

 private:
  enum class State { measuring, decided };
  static constexpr int watch_window = 8;
  static constexpr double switch_ratio = 1.5;

  Exchange& chosen() const { return *contenders_[chosen_].exchange; }
  int trial_count() const { return 1 + 2 * int(contenders_.size()); }  // a warm-up, then each twice
  /// The contender of the current trial: the warm-up packs.
  std::size_t trial_contender() const {
    return trials_ == 0 ? 0 : std::size_t(trials_ - 1) % contenders_.size();
  }

  /// Records a trial's seconds; after the last, keeps the fastest engine.
  void measured(double seconds) {
    if (trials_ > 0) {
      double& best = best_[trial_contender()];
      best = trials_ <= int(contenders_.size()) ? seconds : std::min(best, seconds);
    }
    if (++trials_ < trial_count()) return;
    DISTARRAY_MPI_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, best_.data(), int(best_.size()), MPI_DOUBLE, MPI_MAX, shape_.comm));
    state_ = State::decided;
    chosen_ = std::size_t(std::min_element(best_.begin(), best_.end()) - best_.begin());
    watched_ = 0;
    for (std::size_t k = 0; k < contenders_.size(); ++k)
      if (k != chosen_ && contenders_[k].make) contenders_[k].exchange.reset();
    const Contender& c = contenders_[chosen_];
    if (!c.send_buffer || !c.recv_buffer) buffers_.hold_buffers(c.send_buffer, c.recv_buffer);
    if (decided_) decided_(c.engine);
  }

  /// A watched execution completed in `inside_` seconds.
  void completed() { window_[std::size_t(watched_++ % watch_window)] = inside_; }

  /// At a start after every watch_window watched executions: the median of
  /// the window, slowest rank, against the runner-up (collective).  Measures
  /// every contender again (no warm-up) where the chosen one has fallen behind.
  void watch() {
    // (Every start follows a completed execution: no window is checked twice.)
    if (watched_ == 0 || watched_ % watch_window != 0) return;
    std::array<double, watch_window> w = window_;
    std::nth_element(w.begin(), w.begin() + watch_window / 2, w.end());
    double median = w[watch_window / 2];
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_MAX, shape_.comm));
    double runner_up = std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < best_.size(); ++k)
      if (k != chosen_) runner_up = std::min(runner_up, best_[k]);
    if (median <= switch_ratio * runner_up) return;
    // Packing needs its buffers back (no rank alone may fail to allocate).
    agreed(shape_.comm, [&] { buffers_.hold_buffers(true, true); });
    state_ = State::measuring;
    trials_ = 1;
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::vector<Contender> contenders_;  // packing first
  State state_ = State::measuring;
  int trials_ = 0;
  std::size_t chosen_ = 0;
  std::vector<double> best_;  // each contender's best time, slowest rank
  bool completed_in_start_ = false;
  double inside_ = 0;                          // the running execution's seconds inside the engine
  long watched_ = 0;                           // executions since the decision
  std::array<double, watch_window> window_{};  // their last watch_window times
  std::function<void(ExchangeEngine)> decided_;
};

}  // namespace

std::unique_ptr<Exchange> make_automatic_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                  std::vector<Contender> contenders,
                                                  std::function<void(ExchangeEngine)> decided) {
  return std::make_unique<AutomaticExchange>(shape, buffers, std::move(contenders), std::move(decided));
}

}  // namespace distarray::detail
