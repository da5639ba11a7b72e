#pragma once
// DistArray<T, D, MemorySpace, Order>: a D-dimensional global array spread
// over the ranks of a communicator by a Layout<D>.  Each rank holds its local
// block in a Kokkos::View of its local extents in MemorySpace, so a CUDA or
// HIP Kokkos build keeps the data on the device.  The block is row-major
// (Kokkos::LayoutRight) unless Order is Kokkos::LayoutLeft (storage_order.hpp).
// Ranks outside the layout's grid hold an empty block.  Construction is collective.

#ifndef DISTARRAY_INCLUDING_DETAIL  // lets this header include internal ones (as Kokkos' impl/ guard)
#define DISTARRAY_INCLUDING_DETAIL
#define DISTARRAY_INCLUDING_DETAIL_FROM_DIST_ARRAY
#endif

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/detail/node_memory.hpp>
#include <distarray/core/detail/view_of.hpp>
#include <distarray/core/layout.hpp>
#include <distarray/core/proc_grid.hpp>
#include <distarray/core/storage_order.hpp>

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <memory>
#include <type_traits>
#include <vector>

#ifdef DISTARRAY_INCLUDING_DETAIL_FROM_DIST_ARRAY
#undef DISTARRAY_INCLUDING_DETAIL
#undef DISTARRAY_INCLUDING_DETAIL_FROM_DIST_ARRAY
#endif

namespace distarray {

/// Asks DistArray for its local block in memory that every rank of its node
/// maps (see the constructor that takes it).
struct NodeShared {};
inline constexpr NodeShared node_shared{};

template <class T, int D, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space,
          class Order = Kokkos::LayoutRight>
class DistArray {
 public:
  using value_type = T;
  using memory_space = MemorySpace;
  using array_layout = Order;
  using view_type = Kokkos::View<typename detail::ArrayOf<T, D>::type, Order, MemorySpace>;
  static constexpr int rank = D;
  static constexpr StorageOrder storage_order = storage_order_of<Order>();

  DistArray(const Layout<D>& layout, MPI_Comm comm)
      : layout_(layout), grid_(std::make_shared<const ProcGrid<D>>(layout.grid(), comm)) {
    local_extents_ = grid_->coord() ? layout_.local_extents(*grid_->coord()) : Index<D>{};
    // Agreed: a rank that cannot allocate its block must not leave the others
    // waiting in the caller's next collective.
    local_ = detail::agreed(grid_->comm(), [&] { return allocate(); });
  }

  /// The same, with the local block in memory every rank of this node maps
  /// (HostSpace: POSIX shared memory; the device's memory space: CUDA or
  /// HIP IPC, the node's ranks sharing its GPU), so that the shared engine
  /// writes each element straight from its source into this array in one
  /// pass, where every destination array of the node is node-shared.  The
  /// block lives as long as a copy of this DistArray does (a copy of
  /// local() alone does not keep it).
  DistArray(const Layout<D>& layout, MPI_Comm comm, NodeShared)
      : layout_(layout), grid_(std::make_shared<const ProcGrid<D>>(layout.grid(), comm)) {
    static_assert(std::is_same_v<MemorySpace, Kokkos::HostSpace> ||
                      std::is_same_v<MemorySpace, Kokkos::DefaultExecutionSpace::memory_space>,
                  "a node-shared DistArray lives in HostSpace or the default device's memory space");
    local_extents_ = grid_->coord() ? layout_.local_extents(*grid_->coord()) : Index<D>{};
    // Agreed before the collective allocation: a rank whose block overflows must not leave the others in it.
    const index_t bytes = detail::agreed(
        grid_->comm(), [&] { return checked_bytes(element_count(local_extents_), sizeof(T)); });
    try {
      shared_ = detail::make_node_shared(grid_->comm(), std::size_t(bytes),
                                         detail::NodeMemory::where_of<MemorySpace>());
    } catch (const AllocationError& e) {  // (thrown on every rank)
      throw AllocationError("cannot allocate the node-shared local block of layout '" + layout_.to_string() +
                            "': " + e.what());
    }
    local_ = unmanaged(reinterpret_cast<T*>(shared_->block(shared_->me())));
  }

  /// A DistArray over existing local memory — in Order, this rank's local
  /// extents of `layout` — neither copied nor freed (it must outlive the
  /// array).  Collective, like the constructor.
  static DistArray wrap(const Layout<D>& layout, MPI_Comm comm, T* local) {
    return DistArray(layout, comm, local);
  }

  /// The same layout over other local memory, as wrap() places it, sharing
  /// this array's process grid and communicator: not collective, so that a
  /// loop can move data into a sequence of buffers of one layout.
  DistArray with_memory(T* local) const { return DistArray(*this, local); }

  const Layout<D>& layout() const { return layout_; }
  const ProcGrid<D>& grid() const { return *grid_; }
  MPI_Comm comm() const { return grid_->comm(); }

  /// The local block; its extents are local_extents().
  const view_type& local() const { return local_; }
  const Index<D>& local_extents() const { return local_extents_; }
  index_t local_size() const { return element_count(local_extents_); }

  /// Global index of the local element at local index l (this rank in the grid).
  Index<D> global_index(const Index<D>& l) const { return layout_.global_index(*grid_->coord(), l); }
  /// Local index of the element at `offset` in the local block's memory.
  Index<D> local_index(index_t offset) const { return storage_index(offset, local_extents_, storage_order); }

  /// Sets every local element to f(global index); f runs on the host.
  template <class F>
  void fill(F&& f) {
    auto host = Kokkos::create_mirror_view(local_);
    T* data = host.data();
    const index_t n = local_size();
    for (index_t i = 0; i < n; ++i) data[i] = f(global_index(local_index(i)));
    Kokkos::deep_copy(local_, host);
  }

  /// The whole array in row-major order on `root` (empty on other ranks).
  /// Collective; meant for tests and small data.
  std::vector<T> gather(int root = 0) const {
    const index_t total = layout_.global_size();
    if (total > index_t(INT_MAX / sizeof(T)))
      throw ShapeMismatch("DistArray::gather: " + std::to_string(total) +
                          " elements are too many to gather to one rank");
    const int nranks = grid_->comm_size();
    std::vector<int> counts(nranks, 0), displs(nranks, 0);
    for (int r = 0; r < nranks; ++r) {
      const auto c = layout_.grid().coord_of(r);
      counts[r] = c ? int(element_count(layout_.local_extents(*c)) * sizeof(T)) : 0;
      if (r > 0) displs[r] = displs[r - 1] + counts[r - 1];
    }
    auto host = Kokkos::create_mirror_view(local_);
    Kokkos::deep_copy(host, local_);
    std::vector<T> packed(grid_->rank() == root ? std::size_t(total) : 0);
    DISTARRAY_MPI_CHECK(MPI_Gatherv(host.data(), counts[grid_->rank()], MPI_BYTE, packed.data(),
                                    counts.data(), displs.data(), MPI_BYTE, root, grid_->comm()));
    if (grid_->rank() != root) return {};
    std::vector<T> global(static_cast<std::size_t>(total));
    const Index<D> shape = layout_.shape();
    for (int r = 0; r < nranks; ++r) {
      const auto c = layout_.grid().coord_of(r);
      if (!c) continue;
      const Index<D> ext = layout_.local_extents(*c);
      const T* src = packed.data() + displs[r] / sizeof(T);
      const index_t n = element_count(ext);
      for (index_t i = 0; i < n; ++i)
        global[row_major_offset(layout_.global_index(*c, storage_index(i, ext, storage_order)), shape)] =
            src[i];
    }
    return global;
  }

 private:
  view_type allocate() const {
    const index_t bytes = checked_bytes(element_count(local_extents_), sizeof(T));
    try {
      return detail::make_view<view_type>("distarray::local", local_extents_);
    } catch (const std::exception& e) {
      throw AllocationError("cannot allocate the " + byte_text(bytes) + " (" + std::to_string(bytes) +
                            " bytes) local block of layout '" + layout_.to_string() + "': " + e.what());
    }
  }

  DistArray(const Layout<D>& layout, MPI_Comm comm, T* local)
      : layout_(layout), grid_(std::make_shared<const ProcGrid<D>>(layout.grid(), comm)) {
    local_extents_ = grid_->coord() ? layout_.local_extents(*grid_->coord()) : Index<D>{};
    local_ = unmanaged(local);
  }

  DistArray(const DistArray& like, T* local)
      : layout_(like.layout_),
        grid_(like.grid_),
        local_extents_(like.local_extents_),
        local_(unmanaged(local)) {}

  view_type unmanaged(T* local) const {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return view_type(local, static_cast<std::size_t>(local_extents_[I])...);
    }
    (std::make_index_sequence<D>{});
  }

  Layout<D> layout_;
  std::shared_ptr<const ProcGrid<D>> grid_;
  Index<D> local_extents_{};
  view_type local_;
  std::shared_ptr<const detail::NodeMemory> shared_;  // the block of a node-shared array
};

}  // namespace distarray
