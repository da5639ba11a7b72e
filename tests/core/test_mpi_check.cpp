// MPI errors become typed exceptions: the library's communicators return
// error codes (MPI_ERRORS_RETURN) and DISTARRAY_MPI_CHECK turns a failed call
// into an MpiError naming it, instead of an abort.

#include <distarray/core/dist_array.hpp>
#include <distarray/core/mpi_check.hpp>

#include "mpi/world.hpp"

#include <gtest/gtest.h>

#include <string>

namespace distarray {
namespace {

TEST(MpiCheck, LibraryCommunicatorsReturnErrors) {
  const int p = testing::world_size();
  DistArray<double, 1> a(Layout<1>::parse("block on " + std::to_string(p), {10}), MPI_COMM_WORLD);
  MPI_Errhandler handler;
  ASSERT_EQ(MPI_Comm_get_errhandler(a.comm(), &handler), MPI_SUCCESS);
  EXPECT_EQ(handler, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler);
}

TEST(MpiCheck, AFailedCallIsAnMpiErrorNamingIt) {
  const int p = testing::world_size();
  DistArray<double, 1> a(Layout<1>::parse("block on " + std::to_string(p), {10}), MPI_COMM_WORLD);
  int value = 0;
  try {  // a rank past the communicator: an error on this rank alone, no peer involved
    DISTARRAY_MPI_CHECK(MPI_Send(&value, 1, MPI_INT, p + 3, 0, a.comm()));
    FAIL() << "no exception";
  } catch (const MpiError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("MPI_Send"), std::string::npos) << what;
    EXPECT_NE(what.find("rank"), std::string::npos) << what;  // MPI's own text: invalid rank
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace distarray
