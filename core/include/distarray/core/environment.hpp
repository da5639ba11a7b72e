#pragma once
// Environment: initializes MPI (if the caller has not) and Kokkos for the
// lifetime of the object, and finalizes what it initialized.  A malformed
// Kokkos option (--kokkos-threads=abc) is a UsageError, with MPI finalized.
// Kokkos never sees "--help" or "-h": they stay in argv for the program.
// Where it initializes Kokkos it is collective over MPI_COMM_WORLD: rank 0
// warns once when some rank has more host threads than cores to run them.

namespace distarray {

class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

 private:
  bool owns_mpi_ = false;
  bool owns_kokkos_ = false;
};

}  // namespace distarray
