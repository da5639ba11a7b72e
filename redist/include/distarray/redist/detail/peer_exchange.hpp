#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/redist/detail/peer_exchange.hpp is internal: include <distarray/redist.hpp>"
#endif
// PeerExchange: the collective calls of one exchange, restricted to the ranks
// that share data.  When every rank exchanges with every other, MPI_Alltoallv
// and MPI_Alltoallw on the exchange's communicator; otherwise a
// distributed-graph communicator of each rank's actual peers (itself
// included) and MPI_Neighbor_alltoallv / MPI_Neighbor_alltoallw, so that no
// rank walks or waits on ranks it has nothing for.

#include <distarray/redist/detail/copy_table.hpp>
#include <distarray/redist/detail/message_types.hpp>

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
  /// Starts moving k packed copies of every message, the one to oneself
  /// included, one message per peer holding all k: copy j of a side is its
  /// packed buffer at j * stride bytes (a vector datatype per message).
  /// Completes with `request`.
  void batched_alltoallw(int k, std::size_t send_stride, std::size_t recv_stride, const void* send,
                         void* recv, MPI_Request& request);
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
  WArrays batch_send_, batch_recv_;        // batched_alltoallw's, for batch_key_
  std::vector<MPI_Datatype> batch_types_;  // owned
  std::vector<std::size_t> batch_key_;     // k and the strides the batch arrays are for

  void start_alltoallw(const WArrays& send, const WArrays& recv, const void* send_buffer, void* recv_buffer,
                       MPI_Request& request) const;
  void free_batch_types();
};

}  // namespace distarray::detail
