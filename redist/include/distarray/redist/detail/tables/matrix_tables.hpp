#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/tables/matrix_tables.hpp is internal: include <distarray/redist.hpp>"
#endif
// The copy tables of one rank for B(b_at + [0, extent)) = op(A(a_at + ...)):
// what it sends of its local array of A and receives into its local array of
// B.  Along each axis pair (B's rows with A's rows, or A's columns under a
// transpose), the submatrix range splits at the block edges of both into
// pieces with one owner and one local run on each side; a message is the
// product of the two axes' pieces between one pair of processes, in B's
// storage order on both sides (op's transpose swaps A's axes, so A is then
// read across its storage order, a local transpose done in tiles).

#include <distarray/redist/block_cyclic_matrix.hpp>
#include <distarray/redist/detail/tables/copy_table.hpp>
#include <distarray/redist/detail/tables/encoded_messages.hpp>

namespace distarray::detail {

struct MatrixTables {
  CopyTable send, recv;
  EncodedMessages encoded;  ///< with `encode`: a header per send message and the decoder (else none)
};

/// This rank's tables (ranks of the communicator the matrices' rank maps use);
/// `encode`: also the headers of the encoded engine.
MatrixTables matrix_tables(const BlockCyclicMatrix& a, Index<2> a_at, const BlockCyclicMatrix& b,
                           Index<2> b_at, Index<2> extent, bool transpose, int rank, bool encode = false);

}  // namespace distarray::detail
