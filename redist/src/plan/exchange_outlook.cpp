// explain_exchange (strategy.hpp): what the automatic engine will see in each
// step of a strategy, from the layouts alone, and the rule it applies
// (ARCHITECTURE Sec. 4.8, choose_exchange).  The plan itself decides from its
// copy tables; this counts runs per dimension (local_runs), so a 10^8-element
// case is explained at once.

#include "detail/dimensions.hpp"

#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/exchange_choice.hpp>
#include <distarray/redist/peer_counts.hpp>
#include <distarray/redist/strategy.hpp>

#include <climits>
#include <limits>
#include <optional>
#include <sstream>

namespace distarray {

namespace {

/// One side of a step on this rank: the mean contiguous run of its messages
/// in elements of its block (self included), or nothing when it owns none.
/// Trailing dimensions that go whole to one peer join the runs, as in
/// CopyTable::add_message.
template <int D>
std::optional<double> mean_run(const Layout<D>& mine, const std::optional<Coord<D>>& c,
                               const Layout<D>& other, StorageOrder order) {
  if (!c) return std::nullopt;
  const Index<D> extents = mine.local_extents(*c);
  for (int d = 0; d < D; ++d)
    if (extents[d] == 0) return std::nullopt;
  double joined = 1;
  for (int k = 0; k < D; ++k) {
    const int d = order == StorageOrder::row_major ? D - 1 - k : k;
    const index_t runs = local_runs(mine.dist(d), (*c)[d], other.dist(d));
    if (runs > 1) return joined * double(extents[d]) / double(runs);
    joined *= double(extents[d]);
  }
  return joined;
}

/// A side over every rank: the shortest and longest mean run (bytes) and
/// whether the automatic engine would type it on some rank.
struct SideOutlook {
  double shortest = std::numeric_limits<double>::infinity(), longest = 0;
  bool strided = false, typed = false;
  bool owned() const { return longest > 0; }
};

std::string bytes_text(double b) {
  std::ostringstream s;
  s.precision(3);
  if (b >= 1 << 20)
    s << b / (1 << 20) << " MiB";
  else if (b >= 1 << 10)
    s << b / (1 << 10) << " KiB";
  else
    s << b << " bytes";
  return s.str();
}

std::string side_text(const char* name, const SideOutlook& s) {
  if (!s.owned()) return std::string(name) + " side: no rank holds elements";
  std::string runs = bytes_text(s.shortest);
  if (s.longest > s.shortest * 1.01) runs += " to " + bytes_text(s.longest);
  std::string text = std::string(name) + " side: runs of " + runs + " on average per rank";
  if (s.strided) return text + ", transposing (runs step across the block's storage order): packed";
  return text + (s.typed ? ": long enough to move in place"
                         : ": packed (shorter than " + bytes_text(detail::typed_run_bytes) + ")");
}

/// Where the arrays live, as the automatic engine sees it.
struct ArrayMemory {
  bool host;       // memory the host reads: the shared window can be timed
  bool mpi_reads;  // MPI reads the arrays (host memory, or a GPU-aware MPI): datatypes can be
};

/// What the shared engine does with node-shared destinations (explain cannot
/// see the arrays, so it says when).
constexpr const char* one_pass =
    "; into destination arrays made node_shared on every rank of a node: one pass, from each source "
    "straight into the receivers' blocks, nothing to unpack";

/// The engine a step's `options.exchange` leads to, and why (`shares_node`:
/// some rank shares its node with another).
std::string decision(const PlanOptions& options, index_t max_bytes, bool typed, bool shares_node,
                     ArrayMemory memory) {
  const std::string asked(to_string(options.exchange));
  if (options.exchange == ExchangeEngine::p2p || options.exchange == ExchangeEngine::encoded)
    return asked + ", as asked";
  if (options.exchange == ExchangeEngine::shared)
    return "shared, as asked: packed into the receivers' windows within a node (shared memory; on a "
           "GPU, its memory through CUDA or HIP IPC, every rank on one node), by MPI between nodes "
           "(alltoallv where neither can run or a node has no room)" +
           std::string(memory.host ? one_pass : "");
  if (max_bytes > std::min<index_t>(index_t(options.max_message_bytes), INT_MAX))
    return "p2p in chunks: a rank's messages exceed the collectives' int counts";
  if (options.exchange != ExchangeEngine::automatic)
    return asked + ", as asked (datatype packs where MPI cannot read the arrays' memory)";
  if (!memory.mpi_reads)
    return "alltoallv: MPI cannot read the arrays' device memory here, so nothing is typed; packed "
           "buffers staged through pinned host memory (shared only where asked for)";
  shares_node = shares_node && memory.host;
  if (!typed && !shares_node)
    return memory.host ? "alltoallv: no side of any rank is worth a datatype, no two ranks share a node"
                       : "alltoallv: no side of any rank is worth a datatype (shared only where asked for "
                         "on device memory)";
  const std::string timed = typed && shares_node ? "alltoallv, datatype and shared (host memory)"
                            : typed              ? "alltoallv and datatype"
                                                 : "alltoallv and shared (host memory)";
  return timed +
         " timed on the first executions, the fastest kept (or read from the wisdom), then "
         "watched: measured again when it runs 1.5x the runner-up and the runner-up, timed again then "
         "beside it, confirms it (in more windows in a row after each measuring that kept it, up to four); "
         "the others' times are also taken again now and then, in turn" +
         (shares_node ? one_pass : "");
}

}  // namespace

template <int D>
std::string explain_exchange(const Strategy<D>& s, std::pair<StorageOrder, StorageOrder> orders,
                             const PlanOptions& options, std::size_t element_bytes, MPI_Comm comm,
                             bool host_memory) {
  int me = 0;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm, &me));
  const Candidate<D>& c = s.candidate();
  const std::size_t phases = c.chain.size() - 1;
  // Per phase and side: [shortest mean, -longest mean, strided, typed], reduced with MIN, MIN, MAX, MAX.
  std::vector<double> lows, flags;
  for (std::size_t k = 0; k < phases; ++k) {
    const Layout<D>& a = c.chain[k];
    const Layout<D>& b = c.chain[k + 1];
    const std::vector<int> renumbered = k + 1 == phases ? c.destination_ranks : std::vector<int>{};
    // Messages go in the destination's order (plan_tables.hpp).
    const auto [from, to] = detail::phase_orders(k == 0, k + 1 == phases, orders);
    const bool transposing = D > 1 && from != to;
    const std::optional<double> sides[2] = {
        mean_run<D>(a, a.grid().coord_of(me), b, from),
        mean_run<D>(b, detail::destination_coord<D>(b, renumbered, me), a, to)};
    for (int side = 0; side < 2; ++side) {
      const double bytes = sides[side].value_or(0) * double(element_bytes);
      const bool strided = side == 0 && transposing;
      lows.push_back(sides[side] ? bytes : std::numeric_limits<double>::infinity());
      lows.push_back(-bytes);
      flags.push_back(sides[side] && strided);
      flags.push_back(sides[side] && detail::worth_typing(bytes, strided));
    }
  }
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, lows.data(), int(lows.size()), MPI_DOUBLE, MPI_MIN, comm));
  DISTARRAY_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, flags.data(), int(flags.size()), MPI_DOUBLE, MPI_MAX, comm));
  const bool shares_node = detail::ranks_share_a_node(comm);
  const ArrayMemory memory{
      host_memory,
      detail::mpi_reads_arrays(host_memory, detail::staged_buffers(options.staging, host_memory, comm))};
  std::ostringstream out;
  for (std::size_t k = 0; k < phases; ++k) {
    bool typed = false;
    out << "exchange, phase " << k + 1 << ":\n";
    for (int side = 0; side < 2; ++side) {
      const std::size_t i = 2 * (2 * k + std::size_t(side));
      const SideOutlook o{lows[i], -lows[i + 1], flags[i] > 0, flags[i + 1] > 0};
      typed = typed || o.typed;
      out << "      " << side_text(side == 0 ? "send" : "receive", o) << "\n";
    }
    out << "      engine: " << decision(options, c.phases[k].max_bytes, typed, shares_node, memory) << "\n";
  }
  return out.str();
}

#define DISTARRAY_EXPLAIN_EXCHANGE(D)                                                                 \
  template std::string explain_exchange<D>(const Strategy<D>&, std::pair<StorageOrder, StorageOrder>, \
                                           const PlanOptions&, std::size_t, MPI_Comm, bool);
DISTARRAY_FOR_EACH_DIMENSION(DISTARRAY_EXPLAIN_EXCHANGE)

}  // namespace distarray
