// The automatic engine (ARCHITECTURE Sec. 4.8): on the first executions, a warm-up
// with packing, then rounds of trials (contest.hpp); the fastest stays, what it does
// not use is freed, the wisdom is told.  Then watched (watch_window.hpp): a window's
// median past switch_ratio times the runner-up's time has the runner-up timed again at
// once, the kept engine beside it, and every engine measured again where that confirms
// the fall, in more windows in a row after each false alarm.  The others are re-tried in
// turn, the runner-up first, each time the kept engine has run retrial_every times the
// next one's cost (a busy machine can make a trial look slow: a 256^2 transpose kept
// packing at 0.17 ms where the shared window, third in its trials, takes 0.04).

#include "contest.hpp"
#include "exchange.hpp"
#include "watch_window.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>

#include <algorithm>
#include <optional>
#include <vector>

namespace distarray::detail {

namespace {

class AutomaticExchange final : public Exchange {
 public:
  AutomaticExchange(const StepShape& shape, ExchangeBuffers& buffers, std::vector<Contender> contenders,
                    std::function<void(ExchangeEngine)> decided, std::optional<ExchangeEngine> known,
                    Clock clock)
      : shape_(shape),
        buffers_(buffers),
        contest_(shape.comm, std::move(contenders), std::move(clock)),
        decided_(std::move(decided)) {
    if (known) keep_known(*known);
  }

  /// While measuring or re-trying, an execution completes inside start (the
  /// engine's time and Blocks::copy_own's, not the caller's work between).
  void start(const Blocks& blocks, PlanReport& report) override {
    if (state_ == State::decided) watch();
    completed_in_start_ = state_ != State::decided;
    if (completed_in_start_) ++report.trial_executions;
    if (state_ == State::measuring) {
      const double started = contest_.now();
      const std::size_t k = trial_contender();
      const bool fresh = !contest_[k].exchange;  // (alike on every rank)
      if (!contest_.made(k)) return refused(blocks, report);
      const double seconds = contest_.trial(k, trials_ > 0 ? contest_.lead_ins(k, fresh) : 0, blocks, report);
      measured(seconds, contest_.now() - started);
    } else if (state_ == State::retrial) {
      retry(blocks, report);
    } else {
      const double started = contest_.now();
      contest_.chosen_exchange().start(blocks, report);
      if (blocks.copy_own) (*blocks.copy_own)();
      inside_ = contest_.now() - started;
    }
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    return completed_in_start_ || watched([&] { return contest_.chosen_exchange().test(blocks, report); });
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    if (!completed_in_start_) watched([&] { return contest_.chosen_exchange().wait(blocks, report), true; });
  }

  std::string name() const override {
    return state_ == State::measuring ? "auto(measuring)" : contest_.chosen_exchange().name();
  }
  bool settled() const override { return state_ != State::measuring; }
  /// Only a start that neither measures nor watches (both collective, which
  /// a rank that refuses does not reach) hands the agreement to the kept engine.
  bool carries_agreement() const override {
    return state_ == State::decided && !(window_.due() && contest_.size() > 1) &&
           contest_.chosen_exchange().carries_agreement();
  }
  void agree_only(Agreement& agreement) override { contest_.chosen_exchange().agree_only(agreement); }

 private:
  /// retrial: the next execution re-tries retrial_of_ (`retry`).
  enum class State { measuring, decided, retrial };
  static constexpr double switch_ratio = 1.5;
  static constexpr double retrial_every = 32;

  /// The contender of the current trial: the warm-up packs.
  std::size_t trial_contender() const {
    return trials_ == 0 ? 0 : std::size_t(trials_ - 1) % contest_.size();
  }

  /// Records a trial's seconds and cost; after enough rounds, keeps the
  /// fastest engine.
  void measured(double seconds, double cost) {
    if (trials_ > 0) contest_.record(trial_contender(), seconds, cost);
    const int size = int(contest_.size());
    if (++trials_ == 1 || (trials_ - 1) % size != 0) return;  // within a round
    if (!contest_.enough_rounds((trials_ - 1) / size)) return;
    contest_.settle_trials();
    decide(contest_.fastest());
  }

  /// A trial's contender left the contest: this execution packs, as a
  /// warm-up of trials among the others (none where packing is left alone).
  void refused(const Blocks& blocks, PlanReport& report) {
    contest_.run(0, blocks, report);
    restart_trials();
    if (contest_.size() == 1) decide(0);
  }
  /// Trials from the first round again (the warm-up done).
  void restart_trials() {
    contest_.forget_trials();
    trials_ = 1;
  }

  /// Keeps contender k, frees the buffers it does not use, tells the wisdom.
  void decide(std::size_t k) {
    if (remeasuring_ == contest_[k].engine) window_.false_alarm();
    remeasuring_.reset();
    state_ = State::decided;
    contest_.choose(k);
    window_.restart();
    spent_ = 0;
    last_retried_.reset();
    hold_buffers_of(k);
    if (decided_) decided_(contest_[k].engine);
  }

  /// Frees the step's buffers contender k does not use.
  void hold_buffers_of(std::size_t k) {
    const Contender& c = contest_[k];
    if (!c.send_buffer || !c.recv_buffer) buffers_.hold_buffers(c.send_buffer, c.recv_buffer);
  }

  /// The wisdom's engine, kept without trials (collective: made here), or
  /// the trials after all where it cannot be made here.
  void keep_known(ExchangeEngine known) {
    const std::size_t k = contest_.index_of(known);
    if (!contest_.made(k)) {
      if (contest_.size() == 1) decide(0);
      return;
    }
    contest_.choose(k);
    hold_buffers_of(k);
    state_ = State::decided;
  }

  /// The next execution re-tries contender k.
  void retry_next(std::size_t k) {
    retrial_of_ = k;
    state_ = State::retrial;
  }

  /// The re-trial, in one execution: a trial of retrial_of_, with the
  /// buffers it needs, which are freed again after it (as are windows made
  /// for it), then one of the kept engine.
  void retry(const Blocks& blocks, PlanReport& report) {
    const double started = contest_.now();
    state_ = State::decided;
    const std::size_t r = retrial_of_;
    const bool fresh = !contest_[r].exchange;
    if (!contest_.made(r)) {  // it left the contest: the kept engine runs
      contest_.run(contest_.chosen(), blocks, report);
      return;
    }
    const Contender &c = contest_[r], &kept = contest_[contest_.chosen()];
    // Each rank types its own sides, so the buffers a rank lends differ:
    // the lending and the warm-up are decided together.
    const bool borrows = (c.send_buffer && !kept.send_buffer) || (c.recv_buffer && !kept.recv_buffer);
    agreed(shape_.comm, [&] {
      if (borrows) buffers_.hold_buffers(true, true);
    });
    // Lead-ins, as in the trials: they also first touch the buffers just
    // lent (0.08 s for 0.02 s warm on a 4096^2 complex step).
    contest_.best(r) = contest_.trial(r, contest_.lead_ins(r, fresh), blocks, report);
    contest_.drop(r);
    if (borrows) hold_buffers_of(contest_.chosen());
    contest_.cost(r) = contest_.now() - started;
    // The fall, from the kept engine timed the same way in the same
    // stretch: its window holds ranks arriving apart (ARCHITECTURE Sec. 4.8).
    const std::size_t k = contest_.chosen();
    contest_.best(k) = contest_.trial(k, 1, blocks, report);
    contest_.agree_on_times();
    spent_ = 0;
    last_retried_ = r;
    if (window_.fall_lasted(contest_.best(k) > switch_ratio * contest_.best(r))) measure_again();
  }

  /// Runs `part` of a watched execution (true: it completed it), timed for the watch.
  template <class Part>
  bool watched(Part part) {
    const double started = contest_.now();
    const bool completed = part();
    inside_ += contest_.now() - started;
    if (completed) window_.add(inside_);
    return completed;
  }

  /// At a start after every WatchWindow::size watched executions: the median of
  /// the window, slowest rank, against the runner-up (collective).  Re-tries
  /// the runner-up where the chosen one seems to have fallen behind (`retry`
  /// measures every contender again if it has), or when a re-trial is due.
  void watch() {
    if (!window_.due() || contest_.size() == 1) return;
    double median = window_.median();  // (slowest rank)
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_MAX, shape_.comm));
    const std::size_t r = contest_.runner_up();
    if (median > switch_ratio * contest_.best(r)) return retry_next(r);
    window_.fall_lasted(false);
    spent_ += median * WatchWindow::size;
    // The first re-trial since the decision takes the runner-up and prices
    // it at no more than twice the kept engine's time: its trials may have
    // met a busy machine.  Then the others in turn.
    const std::size_t due = last_retried_ ? contest_.other_after(*last_retried_) : r;
    const double cost = last_retried_ ? contest_.cost(due) : std::min(contest_.cost(due), 2 * median);
    if (spent_ >= retrial_every * cost) retry_next(due);
  }

  /// Every contender again (no warm-up).  Packing needs its buffers back
  /// (no rank alone may fail to allocate).
  void measure_again() {
    remeasuring_ = contest_[contest_.chosen()].engine;
    agreed(shape_.comm, [&] { buffers_.hold_buffers(true, true); });
    state_ = State::measuring;
    restart_trials();
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  Contest contest_;
  State state_ = State::measuring;
  int trials_ = 0;
  double spent_ = 0;                         // seconds watched since the last trial
  std::size_t retrial_of_ = 0;               // the contender of the re-trial under way
  std::optional<std::size_t> last_retried_;  // the last one re-tried since the decision
  bool completed_in_start_ = false;
  double inside_ = 0;                          // the running execution's seconds inside the engine
  std::optional<ExchangeEngine> remeasuring_;  // the kept engine, while measuring again
  WatchWindow window_;                         // the kept engine's last executions
  std::function<void(ExchangeEngine)> decided_;
};

}  // namespace

std::unique_ptr<Exchange> make_automatic_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                  std::vector<Contender> contenders,
                                                  std::function<void(ExchangeEngine)> decided,
                                                  std::optional<ExchangeEngine> known, Clock clock) {
  return std::make_unique<AutomaticExchange>(shape, buffers, std::move(contenders), std::move(decided), known,
                                             std::move(clock));
}

}  // namespace distarray::detail
