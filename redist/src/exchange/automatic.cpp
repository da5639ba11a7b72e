// The automatic engine: on the first executions, on the caller's data (the
// result is the same either way), a warm-up with packing, then each
// contender in turn (packing, datatypes, the shared window: those the step
// can run), twice; the fastest (best of two, slowest rank) stays, the
// buffers it does not use are freed (and the shared windows, made at their
// first trial), and the decision goes to the plan's wisdom, if it has one.
// A measuring execution completes inside start, even when started non-blocking.
//
// The choice is watched: each later execution's time inside the engine
// (not the caller's work between start and wait) goes into a window; at
// the start after a full one the ranks agree on its median (slowest rank),
// and past switch_ratio times the runner-up's time every contender is
// measured again.  A busy machine slows the engines unequally (Open MPI
// moves non-contiguous datatypes in fragments, each a round trip through
// the scheduler: 28x alltoallv's time on a 2-rank transpose while a compile
// shared the cores).  The runner-up is timed again too (`retry`), since a
// trial on a busy machine can make it look slower than it is (4 ranks on 2
// cores kept datatypes at 61-87 ms where the shared window took 33): one
// execution each time the kept engine has run retrial_every times its last
// cost (buffers and windows made and freed included), so at most
// 1/retrial_every of the time, plus one: the first after a decision comes
// within 64 executions, as a busy trial may overstate the cost too.

#include "exchange.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

namespace distarray::detail {

namespace {

class AutomaticExchange final : public Exchange {
 public:
  AutomaticExchange(const StepShape& shape, ExchangeBuffers& buffers, std::vector<Contender> contenders,
                    std::function<void(ExchangeEngine)> decided, std::optional<ExchangeEngine> known)
      : shape_(shape),
        buffers_(buffers),
        contenders_(std::move(contenders)),
        best_(contenders_.size(), unmeasured),
        cost_(contenders_.size(), 0),
        decided_(std::move(decided)) {
    if (known) keep_known(*known);
  }

  /// While measuring or re-trying, an execution completes inside start (its
  /// time is the engine's alone, not the caller's work between start and wait).
  void start(const Blocks& blocks, PlanReport& report) override {
    if (state_ == State::decided) watch();
    completed_in_start_ = state_ != State::decided;
    if (state_ == State::measuring) {
      const double started = MPI_Wtime();
      const double seconds = run(trial_contender(), blocks, report);
      measured(seconds, MPI_Wtime() - started);
    } else if (state_ == State::retrial) {
      retry(blocks, report);
    } else {
      const double started = MPI_Wtime();
      chosen().start(blocks, report);
      inside_ = MPI_Wtime() - started;
    }
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
  bool settled() const override { return state_ != State::measuring; }

 private:
  /// retrial: the next execution re-tries the runner-up (`retry`).
  enum class State { measuring, decided, retrial };
  static constexpr int watch_window = 8;
  static constexpr double switch_ratio = 1.5;
  static constexpr double retrial_every = 32;
  /// A contender's time before any trial (the wisdom's choice skips them):
  /// never beaten, the first re-tried, at no cost yet, so at the first watch.
  static constexpr double unmeasured = std::numeric_limits<double>::infinity();

  Exchange& chosen() const { return *contenders_[chosen_].exchange; }
  int trial_count() const { return 1 + 2 * int(contenders_.size()); }  // a warm-up, then each twice
  /// The contender of the current trial: the warm-up packs.
  std::size_t trial_contender() const {
    return trials_ == 0 ? 0 : std::size_t(trials_ - 1) % contenders_.size();
  }

  /// Runs contender k's execution inside start (making it first where it
  /// was dropped: every rank is at the same trial; not timed); its seconds.
  double run(std::size_t k, const Blocks& blocks, PlanReport& report) {
    Contender& c = contenders_[k];
    if (!c.exchange) c.exchange = c.make();
    const double started = MPI_Wtime();
    c.exchange->start(blocks, report);
    c.exchange->wait(blocks, report);
    return MPI_Wtime() - started;
  }

  /// Records a trial's seconds (and its cost, the larger of two: the first
  /// makes the shared windows); after the last, keeps the fastest engine.
  void measured(double seconds, double cost) {
    if (trials_ > 0) {
      const std::size_t k = trial_contender();
      const bool first = trials_ <= int(contenders_.size());
      best_[k] = first ? seconds : std::min(best_[k], seconds);
      cost_[k] = first ? cost : std::max(cost_[k], cost);
    }
    if (++trials_ < trial_count()) return;
    slowest_rank(best_);
    slowest_rank(cost_);
    state_ = State::decided;
    chosen_ = std::size_t(std::min_element(best_.begin(), best_.end()) - best_.begin());
    watched_ = 0;
    window_full_ = false;
    spent_ = 0;
    retried_ = false;
    for (std::size_t k = 0; k < contenders_.size(); ++k)
      if (k != chosen_ && contenders_[k].make) contenders_[k].exchange.reset();
    const Contender& c = contenders_[chosen_];
    if (!c.send_buffer || !c.recv_buffer) buffers_.hold_buffers(c.send_buffer, c.recv_buffer);
    if (decided_) decided_(c.engine);
  }

  /// The wisdom's engine, kept without trials (collective: made here).
  void keep_known(ExchangeEngine known) {
    const auto k = std::find_if(contenders_.begin(), contenders_.end(),
                                [&](const Contender& c) { return c.engine == known; });
    chosen_ = std::size_t(k - contenders_.begin());
    if (!k->exchange) k->exchange = k->make();
    if (!k->send_buffer || !k->recv_buffer) buffers_.hold_buffers(k->send_buffer, k->recv_buffer);
    state_ = State::decided;
  }

  /// The re-trial: one execution on the runner-up (two where it needs
  /// memory the kept engine freed), with the buffers it needs, which are
  /// freed again after it (as are windows made for it).
  void retry(const Blocks& blocks, PlanReport& report) {
    const double started = MPI_Wtime();
    const std::size_t r = runner_up();
    Contender& c = contenders_[r];
    const Contender& kept = contenders_[chosen_];
    const bool borrows = (c.send_buffer && !kept.send_buffer) || (c.recv_buffer && !kept.recv_buffer);
    if (borrows) agreed(shape_.comm, [&] { buffers_.hold_buffers(true, true); });
    // Memory just allocated or mapped is first touched by an execution (0.08 s
    // for 0.02 s warm on a 4096^2 complex step): a warm-up, as in the trials.
    if (borrows || !c.exchange) run(r, blocks, report);
    const double seconds = run(r, blocks, report);
    if (c.make) c.exchange.reset();
    if (borrows) buffers_.hold_buffers(kept.send_buffer, kept.recv_buffer);
    std::vector<double> times{seconds, MPI_Wtime() - started};
    slowest_rank(times);
    best_[r] = times[0];
    cost_[r] = times[1];
    spent_ = 0;
    retried_ = true;
    state_ = State::decided;
    if (median_ > switch_ratio * best_[r]) measure_again();
  }

  /// A watched execution completed in `inside_` seconds.
  void completed() {
    window_[std::size_t(watched_++ % watch_window)] = inside_;
    window_full_ = watched_ % watch_window == 0;
  }

  /// At a start after every watch_window watched executions: the median of
  /// the window, slowest rank, against the runner-up (collective).  Measures
  /// every contender again (no warm-up) where the chosen one has fallen behind.
  void watch() {
    if (!window_full_) return;
    window_full_ = false;
    std::array<double, watch_window> w = window_;
    std::nth_element(w.begin(), w.begin() + watch_window / 2, w.end());
    median_ = w[watch_window / 2];
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &median_, 1, MPI_DOUBLE, MPI_MAX, shape_.comm));
    if (median_ > switch_ratio * best_[runner_up()]) return measure_again();
    spent_ += median_ * watch_window;
    // The first re-trial since the decision prices the runner-up at no more
    // than twice the kept engine's time: its trials may have met a busy machine.
    const double cost = retried_ ? cost_[runner_up()] : std::min(cost_[runner_up()], 2 * median_);
    if (spent_ >= retrial_every * cost) state_ = State::retrial;
  }

  /// Every contender again (no warm-up).  Packing needs its buffers back
  /// (no rank alone may fail to allocate).
  void measure_again() {
    agreed(shape_.comm, [&] { buffers_.hold_buffers(true, true); });
    state_ = State::measuring;
    trials_ = 1;
  }

  /// The fastest contender but the chosen one, an unmeasured one first
  /// (there are at least two: choose_exchange takes alltoallv alone otherwise).
  std::size_t runner_up() const {
    for (std::size_t k = 0; k < best_.size(); ++k)
      if (k != chosen_ && best_[k] == unmeasured) return k;
    std::size_t r = chosen_ == 0 ? 1 : 0;
    for (std::size_t k = 0; k < best_.size(); ++k)
      if (k != chosen_ && best_[k] < best_[r]) r = k;
    return r;
  }

  /// Each entry's maximum over the step's ranks (collective).
  void slowest_rank(std::vector<double>& v) const {
    DISTARRAY_MPI_CHECK(
        MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), MPI_DOUBLE, MPI_MAX, shape_.comm));
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::vector<Contender> contenders_;  // packing first
  State state_ = State::measuring;
  int trials_ = 0;
  std::size_t chosen_ = 0;
  std::vector<double> best_;  // each contender's best time, slowest rank
  std::vector<double> cost_;  // each one's last trial, making and buffers included, slowest rank
  double median_ = 0;         // the last window's, slowest rank
  double spent_ = 0;          // seconds watched since the last trial
  bool retried_ = false;      // the runner-up tried again since the decision
  bool completed_in_start_ = false;
  double inside_ = 0;                          // the running execution's seconds inside the engine
  long watched_ = 0;                           // executions since the decision
  bool window_full_ = false;                   // watch_window of them since the last check
  std::array<double, watch_window> window_{};  // their last watch_window times
  std::function<void(ExchangeEngine)> decided_;
};

}  // namespace

std::unique_ptr<Exchange> make_automatic_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                  std::vector<Contender> contenders,
                                                  std::function<void(ExchangeEngine)> decided,
                                                  std::optional<ExchangeEngine> known) {
  return std::make_unique<AutomaticExchange>(shape, buffers, std::move(contenders), std::move(decided),
                                             known);
}

}  // namespace distarray::detail
