// GoogleTest main for MPI tests: initializes MPI and Kokkos, runs every test
// on every rank, prints rank 0's report plus any other rank's failures
// (prefixed with the rank), and fails the job if any rank failed.

#include <distarray/core/environment.hpp>

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class OtherRankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit OtherRankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?",
                   r.line_number(), r.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  distarray::Environment env(argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new OtherRankFailures(rank));
  }
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !failed)
    std::fprintf(stderr, "a test failed on another rank (see [rank r] lines)\n");
  return any_failed;
}
