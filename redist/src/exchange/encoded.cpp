// Hsu-Chung message encoding (ICPP'97): each message is a header holding the
// receiver's unpacking runs, then the payload (both with this step's tags).
// The receiver computes no receive schedule: it probes for any header,
// decodes it, receives the payload from that source and unpacks it.

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/message_chunks.hpp>

namespace distarray::detail {

namespace {

class EncodedExchange final : public Exchange {
 public:
  /// Collective: every rank learns how many messages to expect.
  EncodedExchange(const StepShape& shape, ExchangeBuffers& buffers, std::vector<std::vector<index_t>> headers,
                  Decoder decode)
      : shape_(shape), buffers_(buffers), headers_(std::move(headers)), decode_(std::move(decode)) {
    int size = 1;
    DISTARRAY_MPI_CHECK(MPI_Comm_size(shape_.comm, &size));
    std::vector<int> sends_to(std::size_t(size), 0);
    for (const auto& m : shape_.send)
      if (m.rank != shape_.rank) sends_to[std::size_t(m.rank)] = 1;
    DISTARRAY_MPI_CHECK(
        MPI_Reduce_scatter_block(sends_to.data(), &expected_, 1, MPI_INT, MPI_SUM, shape_.comm));
  }

  void start(const void* in, void* out, PlanReport& report) override {
    double t = MPI_Wtime();
    buffers_.pack(in);
    t = add_seconds(report.pack_seconds, t);
    sends_.clear();
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
        if (buffers_.decode(shape_.rank, headers_[i], decode_) > 0)
          buffers_.unpack_decoded(shape_.rank, out, shape_.send[i].offset);
    add_seconds(report.unpack_seconds, t);
  }

  void wait(void* out, PlanReport& report) override {
    double t = MPI_Wtime();
    for (int k = 0; k < expected_; ++k) {
      MPI_Status status;
      DISTARRAY_MPI_CHECK(MPI_Probe(MPI_ANY_SOURCE, shape_.header_tag, shape_.comm, &status));
      int words = 0;
      DISTARRAY_MPI_CHECK(MPI_Get_count(&status, MPI_INT64_T, &words));
      header_.resize(std::size_t(words));
      const int source = status.MPI_SOURCE;
      DISTARRAY_MPI_CHECK(MPI_Recv(header_.data(), words, MPI_INT64_T, source, shape_.header_tag, shape_.comm,
                                   MPI_STATUS_IGNORE));
      // The payload's size is the decoded table's: known from the header alone.
      const index_t elements = buffers_.decode(source, header_, decode_);
      char* payload = buffers_.scratch_bytes(elements);
      for (const Chunk& c :
           split_message(std::size_t(elements) * shape_.element_bytes, shape_.max_message_bytes))
        DISTARRAY_MPI_CHECK(MPI_Recv(payload + c.offset, c.bytes, MPI_BYTE, source, shape_.payload_tag,
                                     shape_.comm, MPI_STATUS_IGNORE));
      t = add_seconds(report.exchange_seconds, t);
      buffers_.unpack_decoded(source, out, -1);
      t = add_seconds(report.unpack_seconds, t);
    }
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE));
    add_seconds(report.exchange_seconds, t);
  }

  std::string name() const override { return "encoded"; }

 private:
  const StepShape& shape_;
  ExchangeBuffers& buffers_;
  std::vector<std::vector<index_t>> headers_;  // per send message: the receiver's unpacking runs
  Decoder decode_;
  int expected_ = 0;
  std::vector<MPI_Request> sends_;
  std::vector<index_t> header_;
};

}  // namespace

std::unique_ptr<Exchange> make_encoded_exchange(const StepShape& shape, ExchangeBuffers& buffers,
                                                std::vector<std::vector<index_t>> headers, Decoder decode) {
  return std::make_unique<EncodedExchange>(shape, buffers, std::move(headers), std::move(decode));
}

}  // namespace distarray::detail
