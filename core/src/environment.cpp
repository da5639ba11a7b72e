#include <distarray/core/environment.hpp>
#include <distarray/core/mpi_check.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

namespace distarray {

Environment::Environment(int& argc, char**& argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    DISTARRAY_MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    owns_mpi_ = true;
  }
  if (!Kokkos::is_initialized()) {
    Kokkos::initialize(argc, argv);
    owns_kokkos_ = true;
  }
}

Environment::~Environment() {
  if (owns_kokkos_) Kokkos::finalize();
  if (owns_mpi_) MPI_Finalize();
}

}  // namespace distarray
