#pragma once
// ExchangeStep: one exchange of a plan — pack the local block into a send
// buffer, move the messages with MPI, unpack the receive buffer into the
// target local block.  Pack and unpack are Kokkos kernels over the rows of a
// CopyTable on the array's execution space, each copying its runs; a
// column-major side makes them a local transpose, copied in cache tiles.
// Buffers and tables are built once and reused by every execution.
// The message to oneself is copied between the buffers without MPI.
// Engines: one collective of packed buffers, or of derived datatypes without
// packing (both on the sharing ranks only, PeerExchange), point-to-point, or
// Hsu-Chung's encoded messages; `automatic` measures the first two on the
// first executions and keeps the faster.

#include <distarray/core/checked.hpp>
#include <distarray/core/collective.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/copy_kernels.hpp>
#include <distarray/redist/detail/message_chunks.hpp>
#include <distarray/redist/detail/message_types.hpp>
#include <distarray/redist/detail/peer_exchange.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <climits>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

namespace distarray::detail {

template <class T, class Space>
class ExchangeStep {
  using buffer = Kokkos::View<T*, Space>;
  static constexpr bool host_buffers = Kokkos::SpaceAccessibility<Kokkos::HostSpace, Space>::accessible;

 public:
  /// `comm` is not owned; every rank of it must build and execute the step.
  /// Steps sharing a communicator need different `tag`s: a fast rank may
  /// already send the next step's messages.
  ExchangeStep(MPI_Comm comm, int tag, const CopyTable& send, const CopyTable& recv,
               const PlanOptions& options)
      : comm_(comm),
        payload_tag_(2 * tag),
        header_tag_(2 * tag + 1),
        options_(options),
        send_(send.messages),
        recv_(recv.messages),
        send_strided_(send.strided),
        recv_strided_(recv.strided) {
    DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    DISTARRAY_MPI_CHECK(MPI_Comm_size(comm_, &size_));
    agreed(comm_, [&] {  // no rank alone may fail to allocate before the collectives below
      send_rows_ = device_copy<CopyRow>("distarray::send_rows", send.rows);
      send_runs_ = device_copy<CopyRun>("distarray::send_runs", send.runs);
      recv_rows_ = device_copy<CopyRow>("distarray::recv_rows", recv.rows);
      recv_runs_ = device_copy<CopyRun>("distarray::recv_runs", recv.runs);
    });
    // Collectives take int byte counts and displacements (and one datatype
    // per message): usable only if every rank's messages fit, decided
    // together so that no rank waits in a collective the others skip.
    const std::size_t limit = std::min<std::size_t>(options_.max_message_bytes, INT_MAX);
    int fits = std::size_t(send.total) * sizeof(T) <= limit && std::size_t(recv.total) * sizeof(T) <= limit;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, comm_));
    engine_ = choose_engine(options_.exchange, fits);
    // The sides the datatype engine moves in place: both when asked for it;
    // for the automatic engine, the sides whose runs are contiguous and long
    // (short or strided runs are faster packed by the kernels).  Each rank
    // decides for itself: packed bytes and typed elements have the same
    // type signature.
    const bool forced = engine_ == Engine::datatype;
    if (forced || engine_ == Engine::measuring) {
      send_typed_ = forced || worth_typing(send);
      recv_typed_ = forced || worth_typing(recv);
      // {some rank types a side, every rank types both}: nothing to measure
      // when no side or every side is typed (no packing beats packing).
      int typed[2] = {send_typed_ || recv_typed_, send_typed_ && recv_typed_};
      DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &typed[0], 1, MPI_INT, MPI_LOR, comm_));
      DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &typed[1], 1, MPI_INT, MPI_LAND, comm_));
      if (!typed[0]) engine_ = Engine::collective;
      if (typed[1]) engine_ = Engine::datatype;
    }
    if (engine_ == Engine::collective) send_typed_ = recv_typed_ = false;
    agreed(comm_, [&] {
      checked_bytes(send.total, sizeof(T));
      checked_bytes(recv.total, sizeof(T));
      if (send_typed_) send_types_ = MessageTypes(send, sizeof(T));
      if (recv_typed_) recv_types_ = MessageTypes(recv, sizeof(T));
      // Buffers for the packed sides; measuring also tries packing both.
      const bool measuring = engine_ == Engine::measuring;
      send_buf_ =
          buffer(Kokkos::view_alloc(std::string("distarray::send_buffer"), Kokkos::WithoutInitializing),
                 measuring || !send_typed_ ? send.total : 0);
      recv_buf_ =
          buffer(Kokkos::view_alloc(std::string("distarray::recv_buffer"), Kokkos::WithoutInitializing),
                 measuring || !recv_typed_ ? recv.total : 0);
      send_host_ = Kokkos::create_mirror_view(send_buf_);
      recv_host_ = Kokkos::create_mirror_view(recv_buf_);
    });
    if (engine_ != Engine::p2p) peers_ = std::make_unique<PeerExchange>(comm_, send_, recv_, sizeof(T));
    if (engine_ == Engine::datatype || engine_ == Engine::measuring)
      peers_->use_types(send_typed_ ? &send_types_ : nullptr, recv_typed_ ? &recv_types_ : nullptr);
  }

  ExchangeStep(const ExchangeStep&) = delete;
  ExchangeStep& operator=(const ExchangeStep&) = delete;

  /// The engine this step uses now ("measuring" until the automatic choice is made).
  std::string_view engine() const {
    if (decode_) return "encoded";
    switch (engine_) {
      case Engine::collective:
        return peers_->sparse() ? "alltoallv(neighbors)" : "alltoallv";
      case Engine::datatype:
        return send_typed_ && recv_typed_ ? (peers_->sparse() ? "datatype(neighbors)" : "datatype")
               : send_typed_ ? (peers_->sparse() ? "datatype(send side, neighbors)" : "datatype(send side)")
               : recv_typed_
                   ? (peers_->sparse() ? "datatype(receive side, neighbors)" : "datatype(receive side)")
                   : (peers_->sparse() ? "alltoallw(neighbors)" : "alltoallw");
      case Engine::measuring:
        return "measuring";
      case Engine::p2p:
        break;
    }
    return "p2p";
  }

  /// Builds the receive table of the message from `source` out of its header.
  using Decoder = std::function<CopyTable(int source, const std::vector<index_t>& header)>;

  /// Switches to the `encoded` engine: each send message i carries headers[i]
  /// and receivers build their tables with `decode` instead of a receive
  /// schedule.  Collective: every rank learns how many messages to expect.
  void use_encoding(std::vector<std::vector<index_t>> headers, Decoder decode) {
    headers_ = std::move(headers);
    decode_ = std::move(decode);
    std::vector<int> sends_to(std::size_t(size_), 0);
    for (const auto& m : send_)
      if (m.rank != rank_) sends_to[std::size_t(m.rank)] = 1;
    DISTARRAY_MPI_CHECK(MPI_Reduce_scatter_block(sends_to.data(), &expected_, 1, MPI_INT, MPI_SUM, comm_));
  }

  /// Adds this step's messages and bytes to the report.
  void describe(PlanReport& r) const {
    for (const auto& m : send_) {
      if (m.rank == rank_) {
        r.bytes_local += m.count * index_t(sizeof(T));
        continue;
      }
      ++r.messages_sent;
      r.bytes_sent += m.count * index_t(sizeof(T));
    }
    for (const auto& m : recv_)
      if (m.rank != rank_) {
        ++r.messages_received;
        r.bytes_received += m.count * index_t(sizeof(T));
      }
  }

  /// The ranks of `comm` this step exchanges with, self excluded.
  std::vector<int> peers() const {
    std::vector<int> v;
    for (const auto* t : {&send_, &recv_})
      for (const auto& m : *t)
        if (m.rank != rank_) v.push_back(m.rank);
    return v;
  }

  void execute(const T* in, T* out, PlanReport& report) {
    if (engine_ != Engine::measuring) {
      run(engine_, in, out, report);
      return;
    }
    // The automatic engine on its first executions, on the caller's data (the
    // result is the same either way): a warm-up with packing, then datatypes
    // and packing in turn, twice; the faster (best of two, slowest rank) stays.
    const Engine trial = trials_ % 2 ? Engine::datatype : Engine::collective;
    const double start = MPI_Wtime();
    run(trial, in, out, report);
    double& best = trial_seconds_[trial == Engine::datatype];
    if (trials_ > 0) best = trials_ <= 2 ? MPI_Wtime() - start : std::min(best, MPI_Wtime() - start);
    if (++trials_ < 5) return;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, trial_seconds_, 2, MPI_DOUBLE, MPI_MAX, comm_));
    engine_ = trial_seconds_[1] < trial_seconds_[0] ? Engine::datatype : Engine::collective;
    if (engine_ == Engine::datatype) {  // release what the other engine needed
      if (send_typed_) {
        send_buf_ = buffer();
        send_host_ = typename buffer::HostMirror();
      }
      if (recv_typed_) {
        recv_buf_ = buffer();
        recv_host_ = typename buffer::HostMirror();
      }
    } else {
      send_typed_ = recv_typed_ = false;
      send_types_ = MessageTypes();
      recv_types_ = MessageTypes();
    }
  }

 private:
  /// The engines an ExchangeStep runs; `measuring` tries collective and datatype.
  enum class Engine { collective, p2p, datatype, measuring };

  /// What `requested` becomes on this space when the collectives' int counts
  /// do (`fits`) or do not hold every message.
  static Engine choose_engine(ExchangeEngine requested, bool fits) {
    if (!fits) return Engine::p2p;  // in chunks
    switch (requested) {
      case ExchangeEngine::automatic:
        return host_buffers ? Engine::measuring : Engine::collective;
      case ExchangeEngine::alltoallv:
        return Engine::collective;
      case ExchangeEngine::datatype:
        return host_buffers ? Engine::datatype : Engine::collective;
      case ExchangeEngine::p2p:
      case ExchangeEngine::encoded:
        break;
    }
    return Engine::p2p;
  }

  /// Runs of at least this many bytes are worth moving by datatype, in place.
  static constexpr index_t typed_run_bytes = 512;

  /// True when a table's runs are contiguous and long on average.
  static bool worth_typing(const CopyTable& table) {
    index_t runs = 0;  // contiguous pieces: a strided run is one per element
    for (const auto& m : table.messages) {
      const CopyRow& first = table.rows[std::size_t(m.rows_begin)];
      for (index_t k = first.runs_begin; k < first.runs_end; ++k) {
        const CopyRun& run = table.runs[std::size_t(k)];
        runs += (m.rows_end - m.rows_begin) * (run.stride == 1 ? 1 : run.length);
      }
    }
    return !table.strided && table.total * index_t(sizeof(T)) >= typed_run_bytes * runs;
  }

  void run(Engine engine, const T* in, T* out, PlanReport& report) {
    if (engine == Engine::datatype) {
      exchange_datatypes(in, out, report);
      return;
    }
    pack(in, report);
    if (decode_)
      encoded(out, report);
    else if (engine == Engine::collective)
      alltoallv(out, report);
    else
      point_to_point(out, report);
  }

  template <class Item>
  static Kokkos::View<Item*, Space> device_copy(const char* label, const std::vector<Item>& items) {
    Kokkos::View<Item*, Space> v(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing),
                                 items.size());
    auto host = Kokkos::create_mirror_view(v);
    for (std::size_t i = 0; i < items.size(); ++i) host(i) = items[i];
    Kokkos::deep_copy(v, host);
    return v;
  }

  /// The local block into the send buffer (packing only reads it).
  void pack(const T* in, PlanReport& report) {
    const double t = MPI_Wtime();
    T* local = const_cast<T*>(in);
    if (send_strided_)
      for (const auto& m : send_)
        copy_message(m, true, send_rows_, send_runs_, local, send_buf_.data(), true);
    else
      copy_rows(send_rows_, send_runs_, 0, index_t(send_rows_.extent(0)), local, send_buf_.data(), true);
    Kokkos::fence();
    report.pack_seconds += MPI_Wtime() - t;
  }

  void unpack(const CopyTable::Message& m, T* out) {
    copy_message(m, recv_strided_, recv_rows_, recv_runs_, out, recv_buf_.data(), false);
  }

  /// The message to oneself, unpacked straight from the send buffer: no MPI,
  /// no receive-buffer copy.  Both sides list its elements in the same order.
  void unpack_self(T* out) {
    for (const auto& s : send_)
      if (s.rank == rank_)
        for (const auto& r : recv_)
          if (r.rank == rank_)
            copy_message(r, recv_strided_, recv_rows_, recv_runs_, out, send_buf_.data(), false,
                         s.offset - r.offset);
  }

  T* mpi_send_buffer() {
    if constexpr (!host_buffers) Kokkos::deep_copy(send_host_, send_buf_);
    return send_host_.data();
  }

  void alltoallv(T* out, PlanReport& report) {
    double t = MPI_Wtime();
    peers_->alltoallv(mpi_send_buffer(), recv_host_.data());
    if constexpr (!host_buffers) Kokkos::deep_copy(recv_buf_, recv_host_);
    report.exchange_seconds += MPI_Wtime() - t;
    t = MPI_Wtime();
    for (const auto& m : recv_)
      if (m.rank != rank_) unpack(m, out);
    unpack_self(out);
    Kokkos::fence();
    report.unpack_seconds += MPI_Wtime() - t;
  }

  // Thakur's asynchronous method: receives posted first, every message
  // unpacked as soon as all of its chunks have arrived.
  void point_to_point(T* out, PlanReport& report) {
    const double start = MPI_Wtime();
    double unpacking = 0;
    std::vector<MPI_Request> requests;
    std::vector<std::size_t> owner;  // request -> receive message
    std::vector<int> outstanding(recv_.size(), 0);
    auto* rbase = reinterpret_cast<char*>(recv_host_.data());
    for (std::size_t i = 0; i < recv_.size(); ++i) {
      const auto& m = recv_[i];
      if (m.rank == rank_) continue;
      for (const Chunk& c : split_message(std::size_t(m.count) * sizeof(T), options_.max_message_bytes)) {
        requests.emplace_back();
        owner.push_back(i);
        ++outstanding[i];
        DISTARRAY_MPI_CHECK(MPI_Irecv(rbase + std::size_t(m.offset) * sizeof(T) + c.offset, c.bytes, MPI_BYTE,
                                      m.rank, payload_tag_, comm_, &requests.back()));
      }
    }
    const std::size_t receives = requests.size();
    auto* sbase = reinterpret_cast<char*>(mpi_send_buffer());
    for (const auto& m : send_) {
      if (m.rank == rank_) continue;
      for (const Chunk& c : split_message(std::size_t(m.count) * sizeof(T), options_.max_message_bytes)) {
        requests.emplace_back();
        DISTARRAY_MPI_CHECK(MPI_Isend(sbase + std::size_t(m.offset) * sizeof(T) + c.offset, c.bytes, MPI_BYTE,
                                      m.rank, payload_tag_, comm_, &requests.back()));
      }
    }
    {
      const double t = MPI_Wtime();
      unpack_self(out);
      unpacking += MPI_Wtime() - t;
    }
    for (std::size_t done = 0; done < receives; ++done) {
      int index = MPI_UNDEFINED;
      DISTARRAY_MPI_CHECK(MPI_Waitany(int(receives), requests.data(), &index, MPI_STATUS_IGNORE));
      const std::size_t msg = owner[std::size_t(index)];
      if (--outstanding[msg] > 0) continue;
      const auto& m = recv_[msg];
      const double t = MPI_Wtime();
      if constexpr (!host_buffers)
        Kokkos::deep_copy(Kokkos::subview(recv_buf_, std::make_pair(m.offset, m.offset + m.count)),
                          Kokkos::subview(recv_host_, std::make_pair(m.offset, m.offset + m.count)));
      unpack(m, out);
      unpacking += MPI_Wtime() - t;
    }
    DISTARRAY_MPI_CHECK(
        MPI_Waitall(int(requests.size() - receives), requests.data() + receives, MPI_STATUSES_IGNORE));
    Kokkos::fence();
    report.unpack_seconds += unpacking;
    report.exchange_seconds += MPI_Wtime() - start - unpacking;
  }

  // One MPI_Alltoallw: the typed sides straight from / into the local
  // blocks, the others packed and unpacked by the kernels.  MPI moves every
  // message, the one to oneself included.  (Host memory only.)
  void exchange_datatypes(const T* in, T* out, PlanReport& report) {
    if (!send_typed_) pack(in, report);
    double t = MPI_Wtime();
    peers_->alltoallw(send_typed_ ? static_cast<const void*>(in) : send_buf_.data(),
                      recv_typed_ ? out : recv_buf_.data());
    report.exchange_seconds += MPI_Wtime() - t;
    if (recv_typed_) return;
    t = MPI_Wtime();
    for (const auto& m : recv_) unpack(m, out);
    Kokkos::fence();
    report.unpack_seconds += MPI_Wtime() - t;
  }

  /// Unpacks one message described by a table built from its header.
  void unpack_decoded(const CopyTable& table, T* out, T* buf) {
    const auto rows = device_copy<CopyRow>("distarray::decoded_rows", table.rows);
    const auto runs = device_copy<CopyRun>("distarray::decoded_runs", table.runs);
    for (const auto& m : table.messages) copy_message(m, table.strided, rows, runs, out, buf, false);
  }

  // Hsu-Chung message encoding: a header then the payload (tags of this step) per
  // message; the receiver probes for any header, decodes it, receives the
  // payload from that source and unpacks it.
  void encoded(T* out, PlanReport& report) {
    const double start = MPI_Wtime();
    double unpacking = 0;
    std::vector<MPI_Request> sends;
    char* sbase = reinterpret_cast<char*>(mpi_send_buffer());
    for (std::size_t i = 0; i < send_.size(); ++i) {
      const auto& m = send_[i];
      if (m.rank == rank_) {
        const double t = MPI_Wtime();
        unpack_decoded(decode_(rank_, headers_[i]), out, send_buf_.data() + m.offset);
        unpacking += MPI_Wtime() - t;
        continue;
      }
      sends.emplace_back();
      DISTARRAY_MPI_CHECK(MPI_Isend(headers_[i].data(), int(headers_[i].size()), MPI_INT64_T, m.rank,
                                    header_tag_, comm_, &sends.back()));
      for (const Chunk& c : split_message(std::size_t(m.count) * sizeof(T), options_.max_message_bytes)) {
        sends.emplace_back();
        DISTARRAY_MPI_CHECK(MPI_Isend(sbase + std::size_t(m.offset) * sizeof(T) + c.offset, c.bytes, MPI_BYTE,
                                      m.rank, payload_tag_, comm_, &sends.back()));
      }
    }
    std::vector<index_t> header;
    for (int k = 0; k < expected_; ++k) {
      MPI_Status status;
      DISTARRAY_MPI_CHECK(MPI_Probe(MPI_ANY_SOURCE, header_tag_, comm_, &status));
      int words = 0;
      DISTARRAY_MPI_CHECK(MPI_Get_count(&status, MPI_INT64_T, &words));
      header.resize(std::size_t(words));
      DISTARRAY_MPI_CHECK(MPI_Recv(header.data(), words, MPI_INT64_T, status.MPI_SOURCE, header_tag_, comm_,
                                   MPI_STATUS_IGNORE));
      const CopyTable table = decode_(status.MPI_SOURCE, header);
      if (index_t(scratch_.size()) < table.total) {  // grows to the largest message, then stays
        scratch_ =
            buffer(Kokkos::view_alloc(std::string("distarray::encoded_scratch"), Kokkos::WithoutInitializing),
                   table.total);
        scratch_host_ = Kokkos::create_mirror_view(scratch_);
      }
      char* rbase = reinterpret_cast<char*>(scratch_host_.data());
      for (const Chunk& c : split_message(std::size_t(table.total) * sizeof(T), options_.max_message_bytes))
        DISTARRAY_MPI_CHECK(MPI_Recv(rbase + c.offset, c.bytes, MPI_BYTE, status.MPI_SOURCE, payload_tag_,
                                     comm_, MPI_STATUS_IGNORE));
      const double t = MPI_Wtime();
      if constexpr (!host_buffers) Kokkos::deep_copy(scratch_, scratch_host_);
      unpack_decoded(table, out, scratch_.data());
      unpacking += MPI_Wtime() - t;
    }
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(sends.size()), sends.data(), MPI_STATUSES_IGNORE));
    Kokkos::fence();
    report.unpack_seconds += unpacking;
    report.exchange_seconds += MPI_Wtime() - start - unpacking;
  }

  MPI_Comm comm_;
  int payload_tag_, header_tag_;
  PlanOptions options_;
  int rank_ = 0, size_ = 1;
  Engine engine_ = Engine::p2p;
  std::unique_ptr<PeerExchange> peers_;           // collective and datatype engines
  bool send_typed_ = false, recv_typed_ = false;  // datatype engine: sides moved in place
  MessageTypes send_types_, recv_types_;          // datatype engine
  int trials_ = 0;                                // measuring: executions so far
  double trial_seconds_[2] = {0, 0};              // measuring: {packed, datatype}
  std::vector<CopyTable::Message> send_, recv_;
  bool send_strided_, recv_strided_;
  Kokkos::View<CopyRow*, Space> send_rows_, recv_rows_;
  Kokkos::View<CopyRun*, Space> send_runs_, recv_runs_;
  buffer send_buf_, recv_buf_;
  typename buffer::HostMirror send_host_, recv_host_;
  // encoded engine only
  std::vector<std::vector<index_t>> headers_;
  Decoder decode_;
  int expected_ = 0;
  buffer scratch_;
  typename buffer::HostMirror scratch_host_;
};

}  // namespace distarray::detail
