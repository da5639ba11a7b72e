#pragma once
// The operands of one ScaLAPACK call, agreed by every process of the call:
// each process knows only the descriptors of the grids it is in (CTXT_ = -1
// elsewhere, as p?gemr2d takes them), so the descriptors and grid places are
// gathered over the call's communicator, checked as ScaLAPACK checks them
// (the same verdict on every process: an error names the argument), and
// turned into the two BlockCyclicMatrix operands and windows of a
// MatrixTransform.

#include <distarray/redist/block_cyclic_matrix.hpp>

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace distarray::scalapack {

/// A bad argument: ScaLAPACK's INFO = -argument.
class ArgumentError : public std::runtime_error {
 public:
  ArgumentError(int argument, const std::string& why) : std::runtime_error(why), argument_(argument) {}
  int argument() const { return argument_; }

 private:
  int argument_;
};

/// One call's arguments on this process (1-based indices, as passed) and
/// the positions of the arguments in the routine's list, for errors.
struct CallArguments {
  int m = 0, n = 0;
  int ia = 1, ja = 1, ib = 1, jb = 1;
  const int* desca = nullptr;
  const int* descb = nullptr;
  bool transpose = false;  ///< sub(A) is n x m
  struct Positions {
    int m, n, ia, ja, desca, ib, jb, descb;
  } at{};
};

struct Operands {
  BlockCyclicMatrix a, b;
  Index<2> a_at{}, b_at{}, extent{};
};

/// Collective over `comm` (every process of the call; its ranks number the
/// operands' rank maps): throws ArgumentError on every process alike.
Operands gather_operands(const CallArguments& call, MPI_Comm comm);

}  // namespace distarray::scalapack
