// distarray redist: move the test pattern from one layout to another with a
// plan, repeatedly, and report what it cost (ARCHITECTURE Sec. 7).

#include "commands.hpp"
#include "report_table.hpp"
#include "storage_order_option.hpp"

#include <distarray/core.hpp>
#include <distarray/redist.hpp>
#include <distarray/support/element_pattern.hpp>
#include <distarray/support/median_timing.hpp>
#include <distarray/support/options.hpp>

#include <iostream>
#include <type_traits>

namespace distarray::cli {

namespace {

/// The destination array, node-shared where `node_shared_asked`
/// (--node-shared: the shared engine then goes in one pass).
template <class Array, int D>
Array destination(const Layout<D>& layout, MPI_Comm comm, bool node_shared_asked) {
  return node_shared_asked ? Array(layout, comm, node_shared) : Array(layout, comm);
}

struct RedistRun {
  const support::Options& args;
  std::vector<index_t> shape;
  std::string type, from, to;
  MPI_Comm comm;

  template <class T, int D, class SourceOrder, class DestOrder>
  int run() const {
    Index<D> extents{};
    for (int d = 0; d < D; ++d) extents[d] = shape[std::size_t(d)];
    const auto src = Layout<D>::parse(from, extents);
    const auto dst = Layout<D>::parse(to, extents);
    PlanOptions options;
    options.method = parse_redist_method(args.text("method", "auto"));
    options.schedule = parse_schedule_method(args.text("schedule", "auto"));
    options.exchange = parse_exchange_engine(args.text("exchange", "auto"));
    options.staging = parse_buffer_staging(args.text("staging", "auto"));
    options.wisdom = args.text("wisdom", "");
    const int repeat = int(args.integer("repeat", 10, 1, 10'000'000));  // each one's time is kept
    check_json_path(args.text("json", ""), comm);

    using Space = Kokkos::DefaultExecutionSpace::memory_space;
    DistArray<T, D, Space, SourceOrder> a(src, comm);
    auto b = destination<DistArray<T, D, Space, DestOrder>>(dst, comm, args.has("node-shared"));
    support::fill_pattern(a);
    // Every rank starts the plan together: ranks that own little would
    // otherwise count the fill of the others as plan time.
    DISTARRAY_MPI_CHECK(MPI_Barrier(comm));
    Plan<T, D, Space, SourceOrder, DestOrder> plan(src, dst, comm, options);
    // The automatic engine's trials (its first executions) are not timed:
    // the times are the kept engine's.
    while (!plan.report().settled) plan.execute(a, b);
    const PlanReport untimed = plan.report();
    // Fenced: on a device an execution may return with its last kernels
    // still on the stream (stream-ordered, docs/guide.md).
    const auto seconds = support::slowest_seconds(
        comm, repeat, [] {},
        [&] {
          plan.execute(a, b);
          Kokkos::fence();
        });

    Summary s = summarize(plan.report(), untimed, comm, seconds);
    s.title = "distarray redist: " + extents_text(shape) + " " + type;
    s.from = src.to_string();
    s.to = dst.to_string();
    if constexpr (std::is_same_v<SourceOrder, Kokkos::LayoutLeft>) s.from += " (column-major)";
    if constexpr (std::is_same_v<DestOrder, Kokkos::LayoutLeft>) s.to += " (column-major)";
    if (args.has("node-shared")) s.to += " (node-shared)";
    s.elements = element_count(extents);
    s.element_bytes = index_t(sizeof(T));
    if (args.has("verify")) {
      const index_t bad = support::pattern_mismatches(b);
      s.verified = bad == 0 ? "ok, every element" : std::to_string(bad) + " elements WRONG";
      s.failed = bad != 0;
    }
    print(s, args.text("json", ""), comm);
    return s.failed ? 1 : 0;
  }
};

/// Calls f.template operator()<Order>() with the Kokkos layout of the local
/// blocks that `option` names.
template <class F>
int with_storage_order(const support::Options& args, const std::string& option, F&& f) {
  if (storage_order_option(args, option) == StorageOrder::row_major)
    return f.template operator()<Kokkos::LayoutRight>();
  return f.template operator()<Kokkos::LayoutLeft>();
}

template <class T, int D>
int run_with_orders(const RedistRun& run, const support::Options& args) {
  if constexpr (D == 1) {  // 1-D blocks are stored alike in either order: one plan type serves all four
    for (const char* option : {"from-order", "to-order"}) storage_order_option(args, option);
    return run.run<T, 1, Kokkos::LayoutRight, Kokkos::LayoutRight>();
  } else {
    return with_storage_order(args, "from-order", [&]<class SourceOrder>() {
      return with_storage_order(args, "to-order",
                                [&]<class DestOrder>() { return run.run<T, D, SourceOrder, DestOrder>(); });
    });
  }
}

}  // namespace

int run_redist(int argc, char** argv, MPI_Comm comm) {
  const support::Options args(argc - 1, argv + 1,
                              {"shape", "type", "from", "to", "from-order", "to-order", "method", "schedule",
                               "exchange", "staging", "repeat", "json", "wisdom"},
                              {"verify", "node-shared"});
  int size = 1;
  MPI_Comm_size(comm, &size);
  const std::string p = std::to_string(size);
  // The built-in case: the ADI/FFT transpose (block,*) -> (*,block) on every rank.
  const RedistRun run{args,
                      parse_shape(args.text("shape", "2048x2048")),
                      args.text("type", "f64"),
                      args.text("from", "block,* on " + p + "x1"),
                      args.text("to", "*,block on 1x" + p),
                      comm};
  return with_element_type(run.type, [&]<class T>() {
    switch (run.shape.size()) {
      case 1:
        return run_with_orders<T, 1>(run, args);
      case 2:
        return run_with_orders<T, 2>(run, args);
      case 3:
        return run_with_orders<T, 3>(run, args);
    }
    throw UsageError("redist handles 1- to 3-dimensional shapes; --shape has " +
                     std::to_string(run.shape.size()));
  });
}

}  // namespace distarray::cli
