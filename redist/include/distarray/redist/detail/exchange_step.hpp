#pragma once
// ExchangeStep: one exchange of a plan — pack the local block into a send
// buffer, move the messages with MPI, unpack the receive buffer into the
// target local block.  Pack and unpack are Kokkos kernels over the rows of a
// CopyTable on the array's execution space, each copying its contiguous runs.
// Buffers and tables are built once and reused by every execution.
// The message to oneself is copied between the buffers without MPI.

#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/copy_table.hpp>
#include <distarray/redist/detail/message_chunks.hpp>
#include <distarray/redist/plan_options.hpp>
#include <distarray/redist/plan_report.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <functional>
#include <vector>

namespace distarray::detail {

/// Rows [begin, end) of a copy table: pack (local -> buffer) or unpack
/// (buffer -> local), one parallel iteration per row; buffer positions are
/// shifted by `shift` elements.  A free function: CUDA's extended lambdas may
/// not live in private member functions.
template <class Space, class T>
void copy_rows(const Kokkos::View<CopyRow*, Space>& rows, const Kokkos::View<CopyRun*, Space>& runs,
               index_t begin, index_t end, T* local, T* buf, bool pack, index_t shift = 0) {
  if (begin >= end) return;
  Kokkos::parallel_for(
      pack ? "distarray::pack" : "distarray::unpack",
      Kokkos::RangePolicy<typename Space::execution_space>(begin, end), KOKKOS_LAMBDA(const index_t i) {
        const CopyRow row = rows(i);
        for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
          const CopyRun run = runs(k);
          T* l = local + row.local_base + run.start;
          T* b = buf + (row.buffer_base + shift + run.offset);
          if (pack)
            for (index_t j = 0; j < run.length; ++j) b[j] = l[j];
          else
            for (index_t j = 0; j < run.length; ++j) l[j] = b[j];
        }
      });
}

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
        recv_(recv.messages) {
    DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
    DISTARRAY_MPI_CHECK(MPI_Comm_size(comm_, &size_));
    send_rows_ = device_copy<CopyRow>("distarray::send_rows", send.rows);
    send_runs_ = device_copy<CopyRun>("distarray::send_runs", send.runs);
    recv_rows_ = device_copy<CopyRow>("distarray::recv_rows", recv.rows);
    recv_runs_ = device_copy<CopyRun>("distarray::recv_runs", recv.runs);
    // The datatype engine reads and writes the arrays in place: no buffers.
    // (Space is a compile-time property, so every rank decides alike.)
    use_datatypes_ = options_.exchange == ExchangeEngine::datatype && host_buffers;
    if (use_datatypes_) {
      send_types_ = message_types(send);
      recv_types_ = message_types(recv);
    }
    send_buf_ = buffer(Kokkos::view_alloc(std::string("distarray::send_buffer"), Kokkos::WithoutInitializing),
                       use_datatypes_ ? 0 : send.total);
    recv_buf_ = buffer(Kokkos::view_alloc(std::string("distarray::recv_buffer"), Kokkos::WithoutInitializing),
                       use_datatypes_ ? 0 : recv.total);
    send_host_ = Kokkos::create_mirror_view(send_buf_);
    recv_host_ = Kokkos::create_mirror_view(recv_buf_);
    // MPI_Alltoallv takes int byte counts and displacements: usable only if
    // every rank's buffers fit, decided together so that no rank waits in a
    // collective the others skip.
    const std::size_t limit = std::min<std::size_t>(options_.max_message_bytes, INT_MAX);
    int fits = send_buf_.size() * sizeof(T) <= limit && recv_buf_.size() * sizeof(T) <= limit;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, comm_));
    use_alltoallv_ = options_.exchange == ExchangeEngine::alltoallv && fits;
  }

  ExchangeStep(const ExchangeStep&) = delete;
  ExchangeStep& operator=(const ExchangeStep&) = delete;

  ~ExchangeStep() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (auto* types : {&send_types_, &recv_types_})
      for (MPI_Datatype& t : *types) MPI_Type_free(&t);
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
    if (use_datatypes_) {
      exchange_datatypes(in, out, report);
      return;
    }
    double t = MPI_Wtime();
    // Packing only reads the local block.
    copy_rows(send_rows_, send_runs_, 0, index_t(send_rows_.extent(0)), const_cast<T*>(in), send_buf_.data(),
              true);
    Kokkos::fence();
    report.pack_seconds += MPI_Wtime() - t;
    if (decode_)
      encoded(out, report);
    else if (use_alltoallv_)
      alltoallv(out, report);
    else
      point_to_point(out, report);
  }

 private:
  template <class Item>
  static Kokkos::View<Item*, Space> device_copy(const char* label, const std::vector<Item>& items) {
    Kokkos::View<Item*, Space> v(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing),
                                 items.size());
    auto host = Kokkos::create_mirror_view(v);
    for (std::size_t i = 0; i < items.size(); ++i) host(i) = items[i];
    Kokkos::deep_copy(v, host);
    return v;
  }

  void unpack(const CopyTable::Message& m, T* out) {
    copy_rows(recv_rows_, recv_runs_, m.rows_begin, m.rows_end, out, recv_buf_.data(), false);
  }

  /// The message to oneself, unpacked straight from the send buffer: no MPI,
  /// no receive-buffer copy.  Both sides list its elements in the same order.
  void unpack_self(T* out) {
    for (const auto& s : send_)
      if (s.rank == rank_)
        for (const auto& r : recv_)
          if (r.rank == rank_)
            copy_rows(recv_rows_, recv_runs_, r.rows_begin, r.rows_end, out, send_buf_.data(), false,
                      s.offset - r.offset);
  }

  T* mpi_send_buffer() {
    if constexpr (!host_buffers) Kokkos::deep_copy(send_host_, send_buf_);
    return send_host_.data();
  }

  void alltoallv(T* out, PlanReport& report) {
    double t = MPI_Wtime();
    std::vector<int> scount(size_, 0), sdispl(size_, 0), rcount(size_, 0), rdispl(size_, 0);
    for (const auto& m : send_)
      if (m.rank != rank_) {
        scount[m.rank] = int(m.count * index_t(sizeof(T)));
        sdispl[m.rank] = int(m.offset * index_t(sizeof(T)));
      }
    for (const auto& m : recv_)
      if (m.rank != rank_) {
        rcount[m.rank] = int(m.count * index_t(sizeof(T)));
        rdispl[m.rank] = int(m.offset * index_t(sizeof(T)));
      }
    T* sbuf = mpi_send_buffer();
    DISTARRAY_MPI_CHECK(MPI_Alltoallv(sbuf, scount.data(), sdispl.data(), MPI_BYTE, recv_host_.data(),
                                      rcount.data(), rdispl.data(), MPI_BYTE, comm_));
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

  /// One MPI datatype per message of a copy table: its runs, at their byte
  /// offsets in the local block (rows x runs blocks of T).
  static std::vector<MPI_Datatype> message_types(const CopyTable& table) {
    MPI_Datatype element;
    DISTARRAY_MPI_CHECK(MPI_Type_contiguous(int(sizeof(T)), MPI_BYTE, &element));
    std::vector<MPI_Datatype> types;
    std::vector<int> lengths;
    std::vector<MPI_Aint> displacements;
    for (const auto& m : table.messages) {
      lengths.clear();
      displacements.clear();
      for (index_t r = m.rows_begin; r < m.rows_end; ++r) {
        const CopyRow& row = table.rows[std::size_t(r)];
        for (index_t k = row.runs_begin; k < row.runs_end; ++k) {
          const CopyRun& run = table.runs[std::size_t(k)];
          if (run.length > INT_MAX)
            throw Error("datatype exchange: a contiguous run exceeds INT_MAX elements");
          lengths.push_back(int(run.length));
          displacements.push_back(MPI_Aint(row.local_base + run.start) * MPI_Aint(sizeof(T)));
        }
      }
      if (lengths.size() > std::size_t(INT_MAX))
        throw Error("datatype exchange: a message has too many runs");
      types.emplace_back();
      DISTARRAY_MPI_CHECK(MPI_Type_create_hindexed(int(lengths.size()), lengths.data(), displacements.data(),
                                                   element, &types.back()));
      DISTARRAY_MPI_CHECK(MPI_Type_commit(&types.back()));
    }
    DISTARRAY_MPI_CHECK(MPI_Type_free(&element));
    return types;
  }

  // Derived datatypes straight from the local blocks: MPI moves every
  // message, the one to oneself included, without user-space packing.
  void exchange_datatypes(const T* in, T* out, PlanReport& report) {
    const double start = MPI_Wtime();
    std::vector<int> scount(std::size_t(size_), 0), rcount(std::size_t(size_), 0),
        zero(std::size_t(size_), 0);
    std::vector<MPI_Datatype> stype(std::size_t(size_), MPI_BYTE), rtype(std::size_t(size_), MPI_BYTE);
    for (std::size_t i = 0; i < send_.size(); ++i) {
      scount[std::size_t(send_[i].rank)] = 1;
      stype[std::size_t(send_[i].rank)] = send_types_[i];
    }
    for (std::size_t i = 0; i < recv_.size(); ++i) {
      rcount[std::size_t(recv_[i].rank)] = 1;
      rtype[std::size_t(recv_[i].rank)] = recv_types_[i];
    }
    DISTARRAY_MPI_CHECK(MPI_Alltoallw(const_cast<T*>(in), scount.data(), zero.data(), stype.data(), out,
                                      rcount.data(), zero.data(), rtype.data(), comm_));
    report.exchange_seconds += MPI_Wtime() - start;
  }

  /// Unpacks one message described by a table built from its header.
  void unpack_decoded(const CopyTable& table, T* out, T* buf) {
    const auto rows = device_copy<CopyRow>("distarray::decoded_rows", table.rows);
    const auto runs = device_copy<CopyRun>("distarray::decoded_runs", table.runs);
    copy_rows(rows, runs, 0, index_t(table.rows.size()), out, buf, false);
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
  bool use_alltoallv_ = false;  // else point to point, in chunks
  bool use_datatypes_ = false;  // the datatype engine: no buffers, no packing
  std::vector<MPI_Datatype> send_types_, recv_types_;
  std::vector<CopyTable::Message> send_, recv_;
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
