#pragma once
// The plans of the ScaLAPACK routines, kept by (communicator, element type,
// op, operands) and least recently used first out, so that a loop calling
// pdgemr2d_ with the same descriptors plans once.  A rank's cache alone
// cannot tell that the others still hold a plan (their caches see other
// calls too), so a hit counts only when every process of the call has it.

#include "operands.hpp"

#include <distarray/redist/matrix_transform.hpp>

#include <list>
#include <map>
#include <memory>
#include <vector>

namespace distarray::scalapack {

/// What identifies a plan: the processes of its communicator (as ranks of
/// MPI_COMM_WORLD: a communicator handle may be freed and reused for other
/// processes) and every number of the operands that shapes it.
struct PlanKey {
  MPI_Comm comm = MPI_COMM_NULL;  ///< the call's (not compared)
  std::vector<long long> numbers;
  friend bool operator<(const PlanKey& x, const PlanKey& y) { return x.numbers < y.numbers; }
};

PlanKey plan_key(MPI_Comm comm, int type, MatrixOp op, MatrixExecutions executions, const Operands& o);

class PlanCache {
 public:
  /// Capacity: DISTARRAY_SCALAPACK_PLANS, else 16.
  PlanCache();

  /// Collective over key.comm: the kept plan if every process keeps it, else
  /// a new one from `make` (kept, the least recently used dropped).
  template <class T, class Make>
  MatrixTransform<T, Kokkos::HostSpace>& get(const PlanKey& key, Make&& make) {
    using Plan = Typed<MatrixTransform<T, Kokkos::HostSpace>>;
    if (Entry* e = find(key)) return static_cast<Plan&>(*e->plan).plan;
    return static_cast<Plan&>(*insert(key, std::make_unique<Plan>(make()))).plan;
  }
  void clear();
  int size() const { return int(entries_.size()); }

 private:
  struct Held {
    virtual ~Held() = default;
  };
  template <class P>
  struct Typed : Held {
    explicit Typed(std::unique_ptr<P> p) : owned(std::move(p)), plan(*owned) {}
    std::unique_ptr<P> owned;
    P& plan;
  };
  struct Entry {
    PlanKey key;
    std::unique_ptr<Held> plan;
  };
  /// Collective: the entry when every process has it (moved to the front), else none (and dropped).
  Entry* find(const PlanKey& key);
  std::unique_ptr<Held>& insert(const PlanKey& key, std::unique_ptr<Held> plan);

  std::size_t capacity_;
  std::list<Entry> entries_;  // most recently used first
  std::map<PlanKey, std::list<Entry>::iterator> index_;
};

PlanCache& plan_cache();

}  // namespace distarray::scalapack
