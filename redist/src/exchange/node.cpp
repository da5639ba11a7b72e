// Ranks grouped by node for the shared engine (exchange.hpp): which ranks of
// a step share memory, an emulated split for tests of mixed plans, and
// whether the node has room for the step's shared windows.

#include "exchange.hpp"
#include "same_arguments.hpp"  // core/src

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/error.hpp>

#if __has_include(<sys/statvfs.h>)
#include <sys/statvfs.h>
#endif

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace distarray::detail {

namespace {

/// DISTARRAY_EMULATED_NODES: cut each node's ranks into this many "nodes"
/// (1 when unset).  Agreed first (ranks that cut apart differently would
/// build different steps), so that a bad value throws on every rank.
int emulated_nodes(MPI_Comm comm) {
  const char* text = std::getenv("DISTARRAY_EMULATED_NODES");
  agree_same_arguments(comm, "node grouping",
                       {{"the environment variable DISTARRAY_EMULATED_NODES",
                         text ? "'" + std::string(text) + "'" : std::string("unset")}});
  if (!text) return 1;
  int nodes = 1;
  const char* end = text + std::strlen(text);
  const auto [at, error] = std::from_chars(text, end, nodes);
  if (error != std::errc() || at != end || nodes < 1)
    throw UsageError("DISTARRAY_EMULATED_NODES must be a whole number of nodes >= 1, not '" +
                     std::string(text) + "'");
  return nodes;
}

}  // namespace

MPI_Comm node_communicator(MPI_Comm comm) {
  const int rank = rank_of(comm), size = ranks_of(comm);
  const int nodes = emulated_nodes(comm);
  MPI_Comm shared = MPI_COMM_NULL;
  DISTARRAY_MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared));
  if (nodes == 1) return shared;
  // The step's ranks in rank order, cut into `nodes` runs of (nearly) equal length.
  MPI_Comm node = MPI_COMM_NULL;
  DISTARRAY_MPI_CHECK(MPI_Comm_split(shared, int(long(rank) * nodes / size), rank, &node));
  MPI_Comm_free(&shared);
  return node;
}

std::vector<int> node_ranks(MPI_Comm comm, MPI_Comm node) {
  MPI_Group all = MPI_GROUP_NULL, local = MPI_GROUP_NULL;
  DISTARRAY_MPI_CHECK(MPI_Comm_group(comm, &all));
  DISTARRAY_MPI_CHECK(MPI_Comm_group(node, &local));
  std::vector<int> ranks(std::size_t(ranks_of(comm))), numbers(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) ranks[r] = int(r);
  DISTARRAY_MPI_CHECK(MPI_Group_translate_ranks(all, int(ranks.size()), ranks.data(), local, numbers.data()));
  MPI_Group_free(&all);
  MPI_Group_free(&local);
  return numbers;
}

bool node_has_room(MPI_Comm node, std::size_t bytes) {
  // POSIX shared memory lives in /dev/shm (a container's is 64 MiB by
  // default).  NodeSegments reserves its bytes there and throws where it
  // cannot; checked first, the choice can take another engine instead.
  // Elsewhere: assumed.
  double total = double(bytes);
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, node));
  double room = std::numeric_limits<double>::infinity();
#if __has_include(<sys/statvfs.h>)
  struct statvfs fs {};
  if (statvfs("/dev/shm", &fs) == 0) room = double(fs.f_bavail) * double(fs.f_frsize);
#endif
  int fits = total <= room;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_LAND, node));
  return fits != 0;
}

}  // namespace distarray::detail
