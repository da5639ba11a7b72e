// A batch through an engine that moves one array at a time: the encoded
// engine, whose receivers place each message by its header, which
// describes one array's piece, and the shared engine, whose senders place
// each array's messages straight into the receivers' windows.  The arrays go one after another, each
// started as soon as the one before has completed (inside test() without
// blocking, or inside wait()), on the engine's own buffers; a rank may
// already send the next array's messages while a peer still receives the
// last one's, as between two executions of a plan.

#include "exchange.hpp"

namespace distarray::detail {

namespace {

class ArrayByArrayExchange final : public Exchange {
 public:
  explicit ArrayByArrayExchange(Exchange& one) : one_(one) {}

  void start(const Blocks& blocks, PlanReport& report) override {
    next_ = 0;
    one_.start(array(blocks, next_), report);
  }
  bool test(const Blocks& blocks, PlanReport& report) override {
    while (one_.test(array(blocks, next_), report))
      if (!start_next(blocks, report)) return true;
    return false;
  }
  void wait(const Blocks& blocks, PlanReport& report) override {
    do one_.wait(array(blocks, next_), report);
    while (start_next(blocks, report));
  }
  std::string name() const override { return one_.name() + ", array by array"; }

 private:
  static Blocks array(const Blocks& blocks, std::size_t j) {
    return {blocks.in.subspan(j, 1), blocks.out.subspan(j, 1)};
  }
  /// Starts the array after the one just completed; false when none is left.
  bool start_next(const Blocks& blocks, PlanReport& report) {
    if (++next_ == blocks.in.size()) return false;
    one_.start(array(blocks, next_), report);
    return true;
  }

  Exchange& one_;
  std::size_t next_ = 0;  // the array in progress
};

}  // namespace

std::unique_ptr<Exchange> make_array_by_array_exchange(Exchange& one) {
  return std::make_unique<ArrayByArrayExchange>(one);
}

}  // namespace distarray::detail
