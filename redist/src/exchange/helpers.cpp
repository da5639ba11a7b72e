// Helpers the exchange engines share (exchange.hpp).

#include "exchange.hpp"
#include "message_chunks.hpp"

#include <distarray/core/mpi_check.hpp>

namespace distarray::detail {

void Exchange::agree_only(Agreement&) {
  throw Error("exchange '" + name() + "' was given an agreement to start but carries none");
}

double add_seconds(double& total, double start) {
  const double now = MPI_Wtime();
  total += now - start;
  return now;
}

bool complete_requests(std::span<MPI_Request> requests, bool block, double& seconds) {
  const double t = MPI_Wtime();
  int done = 1;
  if (block)
    DISTARRAY_MPI_CHECK(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  else
    DISTARRAY_MPI_CHECK(MPI_Testall(int(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE));
  add_seconds(seconds, t);
  return done != 0;
}

void post_message(const StepShape& shape, bool send, char* buffer, const CopyTable::Message& m, int tag,
                  std::vector<MPI_Request>& requests) {
  char* base = buffer + std::size_t(m.offset) * shape.element_bytes;
  for (const Chunk& c : split_message(std::size_t(m.count) * shape.element_bytes, shape.max_message_bytes)) {
    requests.emplace_back();
    if (send)
      DISTARRAY_MPI_CHECK(
          MPI_Isend(base + c.offset, c.bytes, MPI_BYTE, m.rank, tag, shape.comm, &requests.back()));
    else
      DISTARRAY_MPI_CHECK(
          MPI_Irecv(base + c.offset, c.bytes, MPI_BYTE, m.rank, tag, shape.comm, &requests.back()));
  }
}

}  // namespace distarray::detail
