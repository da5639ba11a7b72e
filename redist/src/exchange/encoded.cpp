// Hsu-Chung message encoding (ICPP'97): each message is a header holding the
// receiver's unpacking runs, then the payload (both with this step's tags).
// The receiver computes no receive schedule: it probes for each sender's
// header, decodes it, receives the payload from that source and unpacks it
// (test() takes the headers that have arrived, wait() all of them).

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/message_chunks.hpp>

namespace distarray::detail {

namespace {

class EncodedExchange final : public Exchange {
 public:
  /// Collective: every rank learns which ranks send to it.
  EncodedExchange(const StepShape& shape, ExchangeBuffers& buffers, EncodedMessages messages)
      : shape_(shape),
        buffers_(buffers),
        decoded_(buffers.decoded()),
        headers_(std::move(messages.headers)),
        decode_(std::move(messages.decode)) {
    int size = 1;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(shape_.comm, &size));
    std::vector<int> sends_to(std::size_t(size), 0), sends_here(std::size_t(size), 0);
    for (const auto& m : shape_.send)
      if (m.rank != shape_.rank) sends_to[std::size_t(m.rank)] = 1;
    DISTARRAY_MPI_CHECK(
        MPI_Alltoall(sends_to.data(), 1, MPI_INT, sends_here.data(), 1, MPI_INT, shape_.comm));
    for (int r = 0; r < size; ++r)
      if (sends_here[std::size_t(r)]) sources_.push_back(r);
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack(blocks.in[0]);
    t = add_seconds(report.pack_seconds, t);
    sends_.clear();
    received_ = 0;
    arrived_.assign(sources_.size(), 0);
    for (std::size_t i = 0; i < shape_.send.size(); ++i) {
      const auto& m = shape_.send[i];
      if (m.rank == shape_.rank) continue;
      sends_.emplace_back();
      DISTARRAY_MPI_CHECK(MPI_Isend(headers_[i].data(), int(headers_[i].size()), MPI_INT64_T, m.rank,
                                    shape_.header_tag, shape_.comm, &sends_.back()));
      post_message(shape_, true, buffers_.send_bytes(), m, shape_.payload_tag, sends_);
    }
    t = add_seconds(report.exchange_seconds, t);
    for (std::size_t i = 0; i < shape_.send.size(); ++i)
      if (shape_.send[i].rank == shape_.rank)
        if (decoded_.decode(shape_.rank, headers_[i], decode_) > 0)
          decoded_.unpack_decoded(shape_.rank, blocks.out[0], shape_.send[i].offset);
    add_seconds(report.unpack_seconds, t);
  }

  bool test(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      if (arrived_[i]) continue;
      int found = 0;
      MPI_Status status;
      DISTARRAY_MPI_CHECK(MPI_Iprobe(sources_[i], shape_.header_tag, shape_.comm, &found, &status));
      if (found) t = receive(i, status, blocks.out[0], report, t);
    }
    int sent = 0;
    if (received_ == sources_.size())
      DISTARRAY_MPI_CHECK(MPI_Testall(int(sends_.size()), sends_.data(), &sent, MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
    return sent != 0;
  }

  void wait(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      if (arrived_[i]) continue;
      MPI_Status status;
      DISTARRAY_MPI_CHECK(MPI_Probe(sources_[i], shape_.header_tag, shape_.comm, &status));
      t = receive(i, status, blocks.out[0], report, t);
    }
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
  }

  std::string name() const override { return "encoded"; }

 private:
  /// Receives the header of sources_[i] that `status` found and its payload
  /// (posted by the sender together with the header), and unpacks it.
  /// Returns now.
  double receive(std::size_t i, const MPI_Status& status, void* out, PlanReport& report, double t) {
    int words = 0;
    DISTARRAY_MPI_CHECK(MPI_Get_count(&status, MPI_INT64_T, &words));
    header_.resize(std::size_t(words));
    const int source = status.MPI_SOURCE;
    DISTARRAY_MPI_CHECK(MPI_Recv(header_.data(), words, MPI_INT64_T, source, shape_.header_tag, shape_.comm,
                                 MPI_STATUS_IGNORE));
    // The payload's size is the decoded table's: known from the header alone.
    const index_t elements = decoded_.decode(source, header_, decode_);
    char* payload = decoded_.scratch_bytes(elements);
    for (const Chunk& c :
         split_message(std::size_t(elements) * shape_.element_bytes, shape_.max_message_bytes))
      DISTARRAY_MPI_CHECK(MPI_Recv(payload + c.offset, c.bytes, MPI_BYTE, source, shape_.payload_tag,
                                   shape_.comm, MPI_STATUS_IGNORE));
    arrived_[i] = 1;
    ++received_;
    t = add_seconds(report.exchange_seconds, t);
    decoded_.unpack_decoded(source, out, -1);
    return add_seconds(report.unpack_seconds, t);
  }

  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  DecodeBuffers& decoded_;
  std::vector<std::vector<index_t>> headers_;  // per send message: the receiver's unpacking runs
  Decoder decode_;
  // The ranks that send to this one, and whose header has arrived in this
  // execution.  Headers are probed per source, never for any source: a rank
  // may already send the next execution's header while this one still
  // waits for others, and MPI keeps one source's messages in order.
  std::vector<int> sources_;
  std::vector<char> arrived_;
  std::size_t received_ = 0;
  std::vector<MPI_Request> sends_;
  std::vector<index_t> header_;
};

}  // namespace

std::unique_ptr<Exchange> make_encoded_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                EncodedMessages messages) {
  return std::make_unique<EncodedExchange>(shape, buffers, std::move(messages));
}

}  // namespace distarray::detail
