#include "peer_exchange.hpp"
#include <distarray/core/mpi_check.hpp>

#include <distarray/core/error.hpp>

#include <algorithm>
#include <climits>
#include <string>

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
  if (!finalized && graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
}

void PeerExchange::alltoallv(const void* send_buffer, void* recv_buffer, MPI_Request& request) const {
  start_alltoallv(scount_.data(), sdispl_.data(), rcount_.data(), rdispl_.data(), send_buffer, recv_buffer,
                  request);
}

void PeerExchange::batched_alltoallv(int k, const void* send_buffer, void* recv_buffer,
                                     MPI_Request& request) {
  if (k != batch_k_) {
    const auto scaled = [k](const std::vector<int>& v, std::vector<int>& out) {
      out.clear();
      for (int x : v) {
        if (long(x) * k > INT_MAX)
          throw Error("batched exchange: " + std::to_string(k) + " arrays exceed MPI's int byte counts");
        out.push_back(x * k);
      }
    };
    scaled(scount_, bscount_);
    scaled(sdispl_, bsdispl_);
    scaled(rcount_, brcount_);
    scaled(rdispl_, brdispl_);
    batch_k_ = k;
  }
  start_alltoallv(bscount_.data(), bsdispl_.data(), brcount_.data(), brdispl_.data(), send_buffer,
                  recv_buffer, request);
}

void PeerExchange::start_alltoallv(const int* scount, const int* sdispl, const int* rcount, const int* rdispl,
                                   const void* send_buffer, void* recv_buffer, MPI_Request& request) const {
  if (sparse())
    DISTARRAY_MPI_CHECK(MPI_Ineighbor_alltoallv(send_buffer, scount, sdispl, MPI_BYTE, recv_buffer, rcount,
                                                rdispl, MPI_BYTE, graph_, &request));
  else
    DISTARRAY_MPI_CHECK(MPI_Ialltoallv(send_buffer, scount, sdispl, MPI_BYTE, recv_buffer, rcount, rdispl,
                                       MPI_BYTE, comm_, &request));
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
  if (sparse())
    DISTARRAY_MPI_CHECK(MPI_Ineighbor_alltoallw(send, wsend_.count.data(), wsend_.displ.data(),
                                                wsend_.type.data(), recv, wrecv_.count.data(),
                                                wrecv_.displ.data(), wrecv_.type.data(), graph_, &request));
  else
    DISTARRAY_MPI_CHECK(MPI_Ialltoallw(send, wsend_.count.data(), wsend_.int_displ.data(), wsend_.type.data(),
                                       recv, wrecv_.count.data(), wrecv_.int_displ.data(), wrecv_.type.data(),
                                       comm_, &request));
}

}  // namespace distarray::detail
