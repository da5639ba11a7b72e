#include "plan_cache.hpp"

#include <distarray/core/mpi_check.hpp>

#include <cstdlib>
#include <string>

namespace distarray::scalapack {

namespace {

void append(std::vector<long long>& v, const BlockCyclicMatrix& m) {
  for (const CyclicAxis& a : m.axes) v.insert(v.end(), {a.extent(), a.block(), a.procs(), a.source()});
  v.insert(v.end(), m.ranks.begin(), m.ranks.end());
  v.push_back(m.leading);
}

/// The ranks in MPI_COMM_WORLD of the processes of `comm`, in its order.
std::vector<int> world_ranks(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  DISTARRAY_MPI_CHECK(MPI_Comm_group(comm, &group));
  DISTARRAY_MPI_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
  int size = 0;
  DISTARRAY_MPI_CHECK(MPI_Group_size(group, &size));
  std::vector<int> mine(static_cast<std::size_t>(size)), theirs(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) mine[std::size_t(r)] = r;
  DISTARRAY_MPI_CHECK(MPI_Group_translate_ranks(group, size, mine.data(), world, theirs.data()));
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return theirs;
}

}  // namespace

PlanKey plan_key(MPI_Comm comm, int type, MatrixOp op, MatrixExecutions executions, const Operands& o) {
  PlanKey k{comm, {type, int(op), int(executions)}};
  const std::vector<int> processes = world_ranks(comm);
  k.numbers.push_back(static_cast<long long>(processes.size()));
  k.numbers.insert(k.numbers.end(), processes.begin(), processes.end());
  for (const Index<2>& i : {o.a_at, o.b_at, o.extent}) k.numbers.insert(k.numbers.end(), i.begin(), i.end());
  append(k.numbers, o.a);
  append(k.numbers, o.b);
  return k;
}

PlanCache::PlanCache() {
  const char* env = std::getenv("DISTARRAY_SCALAPACK_PLANS");
  capacity_ = env && std::atoi(env) > 0 ? std::size_t(std::atoi(env)) : 16;
}

PlanCache::Entry* PlanCache::find(const PlanKey& key) {
  const auto it = index_.find(key);
  int everywhere = it != index_.end() ? 1 : 0;
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_LAND, key.comm));
  if (it == index_.end()) return nullptr;
  if (!everywhere) {  // another process dropped it: all build it anew
    entries_.erase(it->second);
    index_.erase(it);
    return nullptr;
  }
  entries_.splice(entries_.begin(), entries_, it->second);
  return &entries_.front();
}

std::unique_ptr<PlanCache::Held>& PlanCache::insert(const PlanKey& key, std::unique_ptr<Held> plan) {
  entries_.push_front({key, std::move(plan)});
  index_[key] = entries_.begin();
  while (entries_.size() > capacity_) {
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
  return entries_.front().plan;
}

void PlanCache::clear() {
  index_.clear();
  entries_.clear();
}

PlanCache& plan_cache() {
  // Never destroyed: its plans hold Kokkos views, so they go in Kokkos'
  // finalize hook (routines.cpp), which may run after static destructors.
  static PlanCache* cache = new PlanCache;
  return *cache;
}

}  // namespace distarray::scalapack
