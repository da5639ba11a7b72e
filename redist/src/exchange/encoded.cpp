// Hsu-Chung message encoding (ICPP'97): each message is a header holding the
// receiver's unpacking runs, then the payload (both with this step's tags).
// The receiver computes no receive schedule: it probes for each sender's
// header and decodes it, and receives the payloads one after another into
// one buffer, unpacked in waves as they arrive (message_waves.hpp), so that
// an execution's launches are the same few however many senders it has.
// The buffer's layout needs every payload's size: the first execution
// receives the payloads once every header is in; later ones post their
// receives at the start, as p2p does, into the layout the headers gave
// (a plan's headers never change; each one is still received and checked).
// test() takes what has arrived, wait() everything.

#include "arrivals.hpp"
#include "exchange.hpp"

#include <distarray/core/error.hpp>
#include <distarray/core/mpi_check.hpp>

#include <string>

namespace distarray::detail {

namespace {

class EncodedExchange final : public Exchange {
 private:  // (first: its return type is deduced)
  /// Unpacks a wave of received payloads; `t` is now, before and after.
  auto unpacker(const Blocks& blocks, PlanReport& report, double& t) {
    const auto unpack = [this, out = blocks.out[0]](std::size_t first, std::size_t last) {
      decoded_.unpack_gathered(first, last, out);
    };
    return timed_unpack(unpack, report, t);
  }

 public:
  /// Collective: every rank learns which ranks send to it.
  EncodedExchange(const StepShape& shape, ExchangeBuffers& buffers, DecodeBuffers& decoded,
                  EncodedMessages messages)
      : shape_(shape),
        buffers_(buffers),
        decoded_(decoded),
        headers_(std::move(messages.headers)),
        decode_(std::move(messages.decode)) {
    int size = 1;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(shape_.comm, &size));
    std::vector<int> sends_to(std::size_t(size), 0), sends_here(std::size_t(size), 0);
    for (const auto& m : shape_.send) sends_to[std::size_t(m.rank)] = 1;
    DISTARRAY_MPI_CHECK(
        MPI_Alltoall(sends_to.data(), 1, MPI_INT, sends_here.data(), 1, MPI_INT, shape_.comm));
    for (int r = 0; r < size; ++r)
      if (sends_here[std::size_t(r)]) sources_.push_back(r);
    counts_.assign(sources_.size(), 0);
  }

  void start(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    arrivals_.reset();
    headers_in_ = 0;
    arrived_.assign(sources_.size(), 0);
    if (laid_out_)
      for (std::size_t i = 0; i < sources_.size(); ++i) post_payload(i);
    buffers_.pack(blocks.in[0]);
    t = add_seconds(report.pack_seconds, t);
    sends_.clear();
    for (std::size_t i = 0; i < shape_.send.size(); ++i) {
      const auto& m = shape_.send[i];
      sends_.emplace_back();
      DISTARRAY_MPI_CHECK(MPI_Isend(headers_[i].data(), int(headers_[i].size()), MPI_INT64_T, m.rank,
                                    shape_.header_tag, shape_.comm, &sends_.back()));
      post_message(shape_, true, buffers_.send_bytes(), m, shape_.payload_tag, sends_);
    }
    add_seconds(report.exchange_seconds, t);
  }

  bool test(const Blocks& blocks, PlanReport& report) override {
    double t = MPI_Wtime();
    for (std::size_t i = 0; i < sources_.size(); ++i) {
      if (arrived_[i]) continue;
      int found = 0;
      MPI_Status status;
      DISTARRAY_MPI_CHECK(MPI_Iprobe(sources_[i], shape_.header_tag, shape_.comm, &found, &status));
      if (found) receive_header(i, status);
    }
    int sent = 0;
    if (headers_in_ == sources_.size() && arrivals_.test(unpacker(blocks, report, t)))
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
      receive_header(i, status);
    }
    arrivals_.wait(unpacker(blocks, report, t));
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
  }

  std::string name() const override { return "encoded"; }

 private:
  /// Receives the header of sources_[i] that `status` found and decodes it;
  /// once every header is in, lays the payloads out and posts their
  /// receives (the senders posted them with the headers) where the start
  /// did not.
  void receive_header(std::size_t i, const MPI_Status& status) {
    int words = 0;
    DISTARRAY_MPI_CHECK(MPI_Get_count(&status, MPI_INT64_T, &words));
    header_.resize(std::size_t(words));
    DISTARRAY_MPI_CHECK(MPI_Recv(header_.data(), words, MPI_INT64_T, sources_[i], shape_.header_tag,
                                 shape_.comm, MPI_STATUS_IGNORE));
    // The payload's size is the decoded table's: known from the header alone.
    counts_[i] = decoded_.decode(sources_[i], header_, decode_);
    arrived_[i] = 1;
    ++headers_in_;
    laid_out_ = laid_out_ && !decoded_.changed();
    if (!laid_out_ && arrivals_.is_posted(i))  // its payload is on its way into the old layout
      throw Error("encoded exchange: the header from rank " + std::to_string(sources_[i]) +
                  " changed between executions of one plan");
    if (headers_in_ < sources_.size() || laid_out_) return;
    // The payloads one after another, in the order of sources_.
    buffer_ = decoded_.gather(sources_);
    offsets_.assign(1, 0);
    for (const index_t c : counts_) offsets_.push_back(offsets_.back() + c);
    arrivals_.set_waves(MessageWaves(counts_));
    laid_out_ = true;
    for (std::size_t s = 0; s < sources_.size(); ++s) post_payload(s);
  }

  void post_payload(std::size_t i) {
    const CopyTable::Message payload{sources_[i], offsets_[i], counts_[i], 0, 0};
    post_message(shape_, false, buffer_, payload, shape_.payload_tag, arrivals_.requests());
    arrivals_.posted(i);
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
  std::size_t headers_in_ = 0;
  std::vector<index_t> counts_;   // per source: its payload's elements
  bool laid_out_ = false;         // buffer_, offsets_ and the waves stand for the headers
  char* buffer_ = nullptr;        // where the payloads are received
  std::vector<index_t> offsets_;  // per source: its payload's first element in it
  Arrivals arrivals_;             // the payloads, per source
  std::vector<MPI_Request> sends_;
  std::vector<index_t> header_;
};

}  // namespace

std::unique_ptr<Exchange> make_encoded_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                DecodeBuffers& decoded, EncodedMessages messages) {
  return std::make_unique<EncodedExchange>(shape, buffers, decoded, std::move(messages));
}

}  // namespace distarray::detail
