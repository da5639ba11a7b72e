#pragma once
// CollectiveExchange: what the collective engines (alltoallv, datatype,
// batched) share — one non-blocking collective posted by start, whose one
// request test and wait complete before the engine unpacks.

#include "exchange.hpp"

#include <distarray/core/mpi_check.hpp>

namespace distarray::detail {

class CollectiveExchange : public Exchange {
 public:
  bool test(const Blocks& blocks, PlanReport& report) final {
    const double t = MPI_Wtime();
    int done = 0;
    DISTARRAY_MPI_CHECK(MPI_Test(&request_, &done, MPI_STATUS_IGNORE));
    add_seconds(report.exchange_seconds, t);
    if (done) unpack(blocks, report);
    return done != 0;
  }
  void wait(const Blocks& blocks, PlanReport& report) final {
    const double t = MPI_Wtime();
    DISTARRAY_MPI_CHECK(MPI_Wait(&request_, MPI_STATUS_IGNORE));
    add_seconds(report.exchange_seconds, t);
    unpack(blocks, report);
  }

 protected:
  /// What follows the collective: the received buffers into the destinations.
  virtual void unpack(const Blocks& blocks, PlanReport& report) = 0;

  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace distarray::detail
