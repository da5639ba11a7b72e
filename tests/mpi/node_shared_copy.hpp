#pragma once
// A test's local array moved into node-shared memory (core's NodeMemory, as
// a DistArray made node_shared holds its block), so that the shared engine
// writes into it in one pass (redist/src/exchange/one_pass.hpp).

#include <distarray/core/dist_array.hpp>

#include <Kokkos_Core.hpp>

#include <memory>
#include <vector>

namespace distarray::testing {

/// A view of `v`'s elements in a node-shared block made for it (collective
/// over MPI_COMM_WORLD) in its memory space (HostSpace or the device's, as
/// DistArray's node_shared constructor), which `keep` holds.
template <class View>
View node_shared_copy(const View& v, std::vector<std::shared_ptr<const detail::NodeMemory>>& keep) {
  using T = typename View::value_type;
  keep.push_back(detail::make_node_shared(MPI_COMM_WORLD, v.size() * sizeof(T),
                                          detail::NodeMemory::where_of<typename View::memory_space>()));
  const View copy(reinterpret_cast<T*>(keep.back()->block(keep.back()->me())), v.size());
  Kokkos::deep_copy(copy, v);
  return copy;
}

}  // namespace distarray::testing
