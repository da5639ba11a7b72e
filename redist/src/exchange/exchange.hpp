#pragma once
// The exchange engines of a step behind one interface: start (pack, post the
// messages), test (progress, unpack what arrived) and wait (complete them,
// unpack): every engine is non-blocking, and a blocking execution is start
// then wait.  Compiled once: engines see bytes and messages, and reach
// the typed half only through what they are given of it (exchange_buffers.hpp).

#include "message_types.hpp"
#include "peer_exchange.hpp"

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/exec/exchange_buffers.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>

#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace distarray::detail {

/// What every engine knows of its step.
struct StepShape {
  MPI_Comm comm;  ///< not owned
  int rank;
  /// Steps sharing a communicator use different tags: a fast rank may
  /// already send the next step's messages.
  int payload_tag, header_tag;
  std::size_t element_bytes;
  std::size_t max_message_bytes;
  std::vector<CopyTable::Message> send, recv;
};

/// The local blocks of one execution: in[j] moves into out[j], one of each
/// except for the batched exchange.
struct Blocks {
  std::span<const void* const> in;
  std::span<void* const> out;
  /// The front end's agreement to start, where a start reduces it in its
  /// own synchronisation (Exchange::carries_agreement): null otherwise.
  Agreement* agreement = nullptr;
  /// At a start: the step's message to oneself.  The step copies it after
  /// start unless the engine called this first: the automatic engine does,
  /// between its engine's start and wait, so that its trials and its watch
  /// time what the step runs (a trial without it kept alltoallv at 1.25x the
  /// shared engine's time: the copy delays what Ialltoallv leaves to wait).
  const std::function<void()>* copy_own = nullptr;
  /// StartAgreement::front_seconds.
  double agreement_seconds = 0;
};

/// One execution is start(), then test() until it returns true or wait()
/// (never both after completion), all with the same blocks.  Times spent
/// inside them go to the report.
class Exchange {
 public:
  virtual ~Exchange() = default;
  /// Packs the sources and starts moving the messages (typed sides go
  /// straight from the sources and into the destinations); returns without
  /// waiting for other ranks.
  virtual void start(const Blocks& blocks, PlanReport& report) = 0;
  /// Progresses without blocking, unpacking what has arrived; true once
  /// every message is in its destination.
  virtual bool test(const Blocks& blocks, PlanReport& report) = 0;
  /// Completes the exchange: every message is in its destination.
  virtual void wait(const Blocks& blocks, PlanReport& report) = 0;
  /// The engine as options, reports and the command line name it.
  virtual std::string name() const = 0;
  /// False while the automatic engine is still measuring.
  virtual bool settled() const { return true; }
  /// Whether the next start can reduce the front end's agreement to start
  /// (Blocks::agreement) in a synchronisation of all the step's ranks that
  /// it makes anyway, before it writes anything a peer reads: the same
  /// answer on every rank of the step.  Every rank then either starts
  /// with the agreement or passes it to agree_only.
  virtual bool carries_agreement() const { return false; }
  /// On a rank that does not start this execution (it refuses, or moves a
  /// batch or nothing): the agreement alone, reduced in the same
  /// synchronisation as a carrying start's, and concluded.  Only where
  /// carries_agreement().
  virtual void agree_only(Agreement& agreement);
};

/// Packed buffers through one MPI_(Neighbor_)alltoallv.
std::unique_ptr<Exchange> make_alltoallv_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                  std::shared_ptr<const PeerExchange> peers);
/// One MPI_(Neighbor_)alltoallw: each side with types moved in place, the others packed.
std::unique_ptr<Exchange> make_datatype_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                 std::shared_ptr<PeerExchange> peers,
                                                 std::optional<MessageTypes> send_types,
                                                 std::optional<MessageTypes> recv_types);
/// k arrays at once, whatever the step's engine: one message per peer
/// holds the k pieces one after another.
std::unique_ptr<Exchange> make_batched_exchange(BatchBuffers& buffers, std::shared_ptr<PeerExchange> peers);
/// k arrays one after another through `one`, an engine that moves one at a
/// time (encoded: each header describes one array's piece).
std::unique_ptr<Exchange> make_array_by_array_exchange(Exchange& one);
/// Non-blocking sends and receives in chunks; messages unpacked in waves as they arrive.
std::unique_ptr<Exchange> make_point_to_point_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                       MessageBuffers& messages);
/// Hsu-Chung's encoded messages: a header of unpacking runs before each payload.
std::unique_ptr<Exchange> make_encoded_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                DecodeBuffers& decoded, EncodedMessages messages);
/// Messages to ranks on this node packed straight into the receivers'
/// segments of a shared window, a node barrier; messages to other nodes
/// packed into this rank's segment and moved by MPI (shared.cpp).  The
/// segments in device memory where `device_memory` (ranks all on one node).
std::unique_ptr<Exchange> make_shared_exchange(const StepShape& shape, const CopyTable& send,
                                               const CopyTable& recv, StepHalf& buffers, bool device_memory);
/// Bytes of one rank's shared windows for a step, at most (shared.cpp).
std::size_t shared_window_bytes(const CopyTable& send, const CopyTable& recv, std::size_t element_bytes);
/// The shared engine's windows, used in turn (shared.cpp says why two).
inline constexpr int shared_windows = 2;
/// One engine the automatic engine measures, and the step's buffers it needs.
struct Contender {
  std::unique_ptr<Exchange> exchange;
  ExchangeEngine engine;
  bool send_buffer, recv_buffer;
  /// Where set: makes `exchange` (collective) at its first trial, which is
  /// dropped again when another engine is kept (an engine that holds
  /// memory of its own, the shared windows).
  std::function<std::unique_ptr<Exchange>()> make = {};
  /// Executions a newly made one runs before it is timed: one per shared
  /// window, as each window's first execution pays the first touch of its
  /// memory (under this project's CI hypervisor 6 us a page even when
  /// mapped populated: 9-15 ms against 0.6 ms on a 1024^2 transpose at 4
  /// ranks, which kept alltoallv at 1.7x the shared engine's time).
  int warm_ups = 0;
};
/// The automatic engine's clock, in seconds: MPI_Wtime, or a test's that
/// its fake engines advance by the times they are set (exact on a busy
/// machine, and no time slept).
using Clock = std::function<double()>;
/// Measures the contenders (packing first) on the first executions, keeps
/// the fastest and tells `decided` which; measures again where the one
/// kept falls behind the runner-up's time, and the runner-up once in a
/// while.  A `known` engine (the wisdom's) is kept from the start, the
/// others measured once each at the first watches (automatic.cpp;
/// collective where known: the engine is made here).
std::unique_ptr<Exchange> make_automatic_exchange(
    const StepShape& shape, ExchangeBuffers& buffers, std::vector<Contender> contenders,
    std::function<void(ExchangeEngine)> decided, std::optional<ExchangeEngine> known = {},
    Clock clock = [] { return MPI_Wtime(); });

// Helpers the engines share (helpers.cpp).

/// Adds seconds since `start` to `total`; returns now.
double add_seconds(double& total, double start);

/// Tests (`block` false) or waits for `requests`, adding the time to
/// `seconds`; true once every one is complete.
bool complete_requests(std::span<MPI_Request> requests, bool block, double& seconds);

// Ranks grouped by node (node.cpp).

/// The ranks of `comm` sharing this rank's node, numbered in `comm`'s
/// order (collective; the caller frees it).  DISTARRAY_EMULATED_NODES=n
/// cuts `comm`'s ranks, in rank order, into n "nodes" first: mixed plans
/// on one machine, for tests.
MPI_Comm node_communicator(MPI_Comm comm);
/// Each rank of `comm`'s number in `node`, MPI_UNDEFINED where it is not there.
std::vector<int> node_ranks(MPI_Comm comm, MPI_Comm node);
/// Collective over `node`: whether `bytes` per rank of shared windows fit
/// where the node's MPI keeps them.
bool node_has_room(MPI_Comm node, std::size_t bytes);

/// Posts the sends (`send`) or receives of message `m` of `buffer`, in
/// chunks of at most `shape.max_message_bytes`, appending their requests.
void post_message(const StepShape& shape, bool send, char* buffer, const CopyTable::Message& m, int tag,
                  std::vector<MPI_Request>& requests);

}  // namespace distarray::detail
