#include <distarray/core/mpi_check.hpp>
#include <distarray/redist/detail/peer_exchange.hpp>

#include <algorithm>

namespace distarray::detail {

namespace {

/// The ranks of `messages`, oneself added, in increasing order.
std::vector<int> peer_ranks(const std::vector<CopyTable::Message>& messages, int self) {
  std::vector<int> ranks{self};
  for (const auto& m : messages) ranks.push_back(m.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

int position(const std::vector<int>& ranks, int rank) {
  return int(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin());
}

}  // namespace

PeerExchange::PeerExchange(MPI_Comm comm, const std::vector<CopyTable::Message>& send,
                           const std::vector<CopyTable::Message>& recv, std::size_t element_bytes)
    : comm_(comm) {
  int size = 1;
  DISTARRAY_MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  DISTARRAY_MPI_CHECK(MPI_Comm_size(comm_, &size));
  std::vector<int> to = peer_ranks(send, rank_), from = peer_ranks(recv, rank_);
  // Dense when every rank exchanges with all others: decided together.
  int dense = int(to.size()) == size && int(from.size()) == size;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &dense, 1, MPI_INT, MPI_LAND, comm_));
  if (dense) {
    to.resize(std::size_t(size));
    for (int r = 0; r < size; ++r) to[std::size_t(r)] = r;
    from = to;
  } else {
    DISTARRAY_MPI_CHECK(MPI_Dist_graph_create_adjacent(comm_, int(from.size()), from.data(), MPI_UNWEIGHTED,
                                                       int(to.size()), to.data(), MPI_UNWEIGHTED,
                                                       MPI_INFO_NULL, 0, &graph_));
    DISTARRAY_MPI_CHECK(MPI_Comm_set_errhandler(graph_, MPI_ERRORS_RETURN));
  }
  const auto fill = [&](const std::vector<CopyTable::Message>& messages, const std::vector<int>& ranks,
                        std::vector<int>& slot, std::vector<int>& bytes, std::vector<int>& offset,
                        std::vector<int>& count, std::vector<int>& displ) {
    count.assign(ranks.size(), 0);
    displ.assign(ranks.size(), 0);
    for (const auto& m : messages) {
      slot.push_back(position(ranks, m.rank));
      bytes.push_back(int(m.count * index_t(element_bytes)));
      offset.push_back(int(m.offset * index_t(element_bytes)));
      if (m.rank == rank_) continue;
      count[std::size_t(slot.back())] = bytes.back();
      displ[std::size_t(slot.back())] = offset.back();
    }
  };
  fill(send, to, send_slot_, send_bytes_, send_offset_, scount_, sdispl_);
  fill(recv, from, recv_slot_, recv_bytes_, recv_offset_, rcount_, rdispl_);
}

PeerExchange::~PeerExchange() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  free_batch_types();
  if (graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
}

void PeerExchange::alltoallv(const void* send_buffer, void* recv_buffer, MPI_Request& request) const {
  if (sparse())
    DISTARRAY_MPI_CHECK(MPI_Ineighbor_alltoallv(send_buffer, scount_.data(), sdispl_.data(), MPI_BYTE,
                                                recv_buffer, rcount_.data(), rdispl_.data(), MPI_BYTE, graph_,
                                                &request));
  else
    DISTARRAY_MPI_CHECK(MPI_Ialltoallv(send_buffer, scount_.data(), sdispl_.data(), MPI_BYTE, recv_buffer,
                                       rcount_.data(), rdispl_.data(), MPI_BYTE, comm_, &request));
}

void PeerExchange::use_types(const MessageTypes* send_types, const MessageTypes* recv_types) {
  // Per slot: one datatype at the block's base, or bytes at the message's offset.
  const auto arrays = [](const std::vector<int>& slots, const MessageTypes* types,
                         const std::vector<int>& bytes, const std::vector<int>& offset, std::size_t n,
                         WArrays& w) {
    w.count.assign(n, 0);
    w.displ.assign(n, 0);
    w.type.assign(n, MPI_BYTE);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const auto s = std::size_t(slots[i]);
      w.count[s] = types ? 1 : bytes[i];
      w.displ[s] = types ? 0 : offset[i];
      if (types) w.type[s] = (*types)[i];
    }
    w.int_displ.assign(w.displ.begin(), w.displ.end());  // MPI_Alltoallw's int displacements (they fit)
  };
  arrays(send_slot_, send_types, send_bytes_, send_offset_, scount_.size(), wsend_);
  arrays(recv_slot_, recv_types, recv_bytes_, recv_offset_, rcount_.size(), wrecv_);
}

void PeerExchange::alltoallw(const void* send, void* recv, MPI_Request& request) const {
  start_alltoallw(wsend_, wrecv_, send, recv, request);
}

void PeerExchange::batched_alltoallw(int k, std::size_t send_stride, std::size_t recv_stride,
                                     const void* send, void* recv, MPI_Request& request) {
  const std::vector<std::size_t> key{std::size_t(k), send_stride, recv_stride};
  if (key != batch_key_) {
    free_batch_types();
    const auto arrays = [&](const std::vector<int>& slots, const std::vector<int>& bytes,
                            const std::vector<int>& offset, std::size_t stride, std::size_t n, WArrays& w) {
      w.count.assign(n, 0);
      w.displ.assign(n, 0);
      w.type.assign(n, MPI_BYTE);
      for (std::size_t i = 0; i < slots.size(); ++i) {
        if (bytes[i] == 0) continue;
        const auto s = std::size_t(slots[i]);
        MPI_Datatype t;
        DISTARRAY_MPI_CHECK(MPI_Type_create_hvector(k, bytes[i], MPI_Aint(stride), MPI_BYTE, &t));
        DISTARRAY_MPI_CHECK(MPI_Type_commit(&t));
        batch_types_.push_back(t);
        w.count[s] = 1;
        w.displ[s] = offset[i];
        w.type[s] = t;
      }
      w.int_displ.assign(w.displ.begin(), w.displ.end());
    };
    arrays(send_slot_, send_bytes_, send_offset_, send_stride, scount_.size(), batch_send_);
    arrays(recv_slot_, recv_bytes_, recv_offset_, recv_stride, rcount_.size(), batch_recv_);
    batch_key_ = key;
  }
  start_alltoallw(batch_send_, batch_recv_, send, recv, request);
}

void PeerExchange::start_alltoallw(const WArrays& s, const WArrays& r, const void* send, void* recv,
                                   MPI_Request& request) const {
  if (sparse())
    DISTARRAY_MPI_CHECK(MPI_Ineighbor_alltoallw(send, s.count.data(), s.displ.data(), s.type.data(), recv,
                                                r.count.data(), r.displ.data(), r.type.data(), graph_,
                                                &request));
  else
    DISTARRAY_MPI_CHECK(MPI_Ialltoallw(send, s.count.data(), s.int_displ.data(), s.type.data(), recv,
                                       r.count.data(), r.int_displ.data(), r.type.data(), comm_, &request));
}

void PeerExchange::free_batch_types() {
  for (MPI_Datatype& t : batch_types_) MPI_Type_free(&t);
  batch_types_.clear();
  batch_key_.clear();
}

}  // namespace distarray::detail
