#pragma once
// PeerExchange: the collective calls of one exchange, restricted to the ranks
// that share data.  When every rank exchanges with every other, MPI_Alltoallv
// and MPI_Alltoallw on the exchange's communicator; otherwise a
// distributed-graph communicator of each rank's actual peers (itself
// included) and MPI_Neighbor_alltoallv / MPI_Neighbor_alltoallw, so that no
// rank walks or waits on ranks it has nothing for.

#include "message_types.hpp"

#include <distarray/redist/detail/tables/copy_table.hpp>

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace distarray::detail {

class PeerExchange {
 public:
  /// Collective over `comm`.  `send` and `recv` are this rank's messages (in
  /// elements of `element_bytes`); their byte counts and offsets must fit in int.
  PeerExchange(MPI_Comm comm, const std::vector<CopyTable::Message>& send,
               const std::vector<CopyTable::Message>& recv, std::size_t element_bytes);
  PeerExchange(const PeerExchange&) = delete;
  PeerExchange& operator=(const PeerExchange&) = delete;
  ~PeerExchange();

  /// Starts moving packed buffers laid out as the messages say (the message
  /// to oneself is left to the caller); completes with `request`.
  void alltoallv(const void* send_buffer, void* recv_buffer, MPI_Request& request) const;
  /// Sets up alltoallw: each side's messages go through its datatypes
  /// straight from / into a local block, or — where the types are null — as
  /// bytes of a packed buffer laid out as the messages say.  The types must
  /// live while alltoallw is used.
  void use_types(const MessageTypes* send_types, const MessageTypes* recv_types);
  /// Starts moving every message, the one to oneself included, as use_types
  /// set up; `send` and `recv` are the local blocks or the packed buffers.
  /// Completes with `request`.
  void alltoallw(const void* send, void* recv, MPI_Request& request) const;
  /// Starts moving packed buffers of k arrays laid out as the messages say
  /// scaled by k (message m at k times its offset, k times its count): one
  /// message per peer carries all k.  The message to oneself is left to the
  /// caller.  Completes with `request`.
  void batched_alltoallv(int k, const void* send_buffer, void* recv_buffer, MPI_Request& request);
  /// True when the exchange runs on a graph of the sharing ranks.
  bool sparse() const { return graph_ != MPI_COMM_NULL; }

 private:
  MPI_Comm comm_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  int rank_ = 0;
  std::vector<int> send_slot_, recv_slot_;              // message -> position in MPI's arrays
  std::vector<int> scount_, sdispl_, rcount_, rdispl_;  // bytes, self left out
  std::vector<int> send_bytes_, send_offset_, recv_bytes_, recv_offset_;  // per message, self included
  struct WArrays {  // one side's MPI_(Neighbor_)alltoallw arguments
    std::vector<int> count, int_displ;
    std::vector<MPI_Aint> displ;
    std::vector<MPI_Datatype> type;
  };
  WArrays wsend_, wrecv_;
  int batch_k_ = 0;                                         // the k the arrays below are for
  std::vector<int> bscount_, bsdispl_, brcount_, brdispl_;  // alltoallv's, scaled by batch_k_

  void start_alltoallv(const int* scount, const int* sdispl, const int* rcount, const int* rdispl,
                       const void* send_buffer, void* recv_buffer, MPI_Request& request) const;
};

}  // namespace distarray::detail
