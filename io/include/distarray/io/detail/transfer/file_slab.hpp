#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/transfer/file_slab.hpp is internal: include <distarray/io.hpp>"
#endif
// The file's side of a checkpoint transfer.  Every rank of the communicator
// moves one contiguous range of the row-major dataset — its "file slab":
// `block` over the first dimension on all ranks, `*` on the others — and a
// plan moves the data between the slabs and the array's own layout, storage
// order and memory space.  Why not hyperslabs of the array's layout: an
// independent MPI-IO transfer of one contiguous range per rank runs at the
// pattern of a bare parallel-HDF5 write or read (Hdf5File::write and read;
// compressed datasets go collectively), while strided selections
// (block-cyclic layouts, `*,block`) would need MPI-IO's two-phase exchange,
// and OpenMPI 4.1's OMPIO leaks memory on collective reads of strided selections
// (docs/reliability.md).  An array already laid out as the slabs (row-major
// `block,*` on all ranks) moves straight through its host mirror.

#include <distarray/core/detail/collective.hpp>
#include <distarray/core/dist_array.hpp>
#include <distarray/io/detail/checksum/checksum.hpp>
#include <distarray/io/detail/hdf5/hdf5_file.hpp>
#include <distarray/io/detail/transfer/slab_memory.hpp>
#include <distarray/redist/plan.hpp>

#include <memory>
#include <optional>
#include <vector>

namespace distarray::detail {

/// `block` over dimension 0 on all `ranks`, `*` on the others: each rank's
/// piece of a row-major file is one contiguous range.
template <int D>
Layout<D> file_slab_layout(const Index<D>& shape, int ranks) {
  std::array<int, D> dims{};
  dims.fill(1);
  dims[0] = ranks;
  std::array<Dist1D, D> dists;
  dists[0] = Dist1D::block(shape[0], ranks);
  for (int d = 1; d < D; ++d) dists[d] = Dist1D::collapsed(shape[d]);
  return Layout<D>(GridShape<D>::make(dims), dists);
}

/// This rank's slab of a D-dimensional array: its rows [first, first + rows)
/// of the row-major dataset, in a row-major host buffer.
template <class T, int D>
struct FileSlab {
  using host_array = DistArray<T, D, Kokkos::HostSpace>;
  Layout<D> layout;
  host_array array;              ///< row-major, on the host
  std::shared_ptr<void> memory;  ///< array's memory when the slab owns it (allocated())
  index_t row_offset = 0;        ///< the dataset row of layout's row 0 (a row group's first)

  /// A slab of its own, in slab memory (not zeroed; collective).
  static FileSlab allocated(const Layout<D>& layout, MPI_Comm comm) {
    const auto coord = layout.grid().coord_of(rank_of(comm));
    const index_t elements = coord ? element_count(layout.local_extents(*coord)) : 0;
    auto memory = agreed(comm, [&] { return slab_memory(std::size_t(elements) * sizeof(T)); });
    return {layout, host_array::wrap(layout, comm, static_cast<T*>(memory.get())), std::move(memory), 0};
  }
  /// A slab over memory owned elsewhere (that must outlive it): an array's
  /// own when laid out as the slabs, or a row group's buffer.
  static FileSlab over(const Layout<D>& layout, MPI_Comm comm, T* local, index_t row_offset = 0) {
    return {layout, host_array::wrap(layout, comm, local), nullptr, row_offset};
  }

  /// Its rows (the local extent along dimension 0).
  index_t rows() const { return array.local_extents()[0]; }
  /// The dataset row of its first row.
  index_t first_row() const {
    return rows() ? row_offset + layout.dist(0).global_index(array.grid().coord().value()[0], 0) : 0;
  }
  /// Elements per row (the product of the other extents; the same on every rank).
  index_t row_size() const {
    index_t size = 1;
    for (int d = 1; d < D; ++d) size *= array.local_extents()[d];
    return size;
  }

  /// The hyperslab of `band` of its rows (none when the band is empty).
  std::vector<std::vector<SlabPiece>> pieces(LocalRows band = {}) const {
    std::vector<std::vector<SlabPiece>> p(D);
    Index<D> ext = array.local_extents();
    ext[0] = band.of(ext[0]);
    if (element_count(ext) == 0) return p;
    p[0].push_back({hsize_t(first_row() + band.first), 1, 1, hsize_t(ext[0])});
    for (int d = 1; d < D; ++d) p[d].push_back({0, 1, 1, hsize_t(ext[d])});
    return p;
  }
  /// The local extents of `band` of its rows.
  std::vector<index_t> extents(LocalRows band = {}) const {
    std::vector<index_t> ext(array.local_extents().begin(), array.local_extents().end());
    ext[0] = band.of(ext[0]);
    return ext;
  }
  /// Its memory from local row `first`.
  T* data(index_t first = 0) const { return array.local().data() + first * row_size(); }
};

/// Whether `a` is already laid out as the slabs on the host, row-major.
template <class T, int D, class M, class O>
bool is_file_slab(const DistArray<T, D, M, O>& a, int ranks) {
  return std::is_same_v<O, Kokkos::LayoutRight> &&
         Kokkos::SpaceAccessibility<Kokkos::HostSpace, M>::accessible &&
         a.layout() == file_slab_layout<D>(a.layout().shape(), ranks);
}

/// A one-off plan between an array and the slabs, its engine fixed so that
/// no measuring executions are spent on a plan run once: derived datatypes,
/// which skip the pack and unpack copies (twice as fast as packed buffers on
/// a 256 MiB restore into a block-cyclic layout, bench/checkpoint_io.cpp;
/// memory the host cannot access falls back to packing).
inline PlanOptions one_off_plan() {
  PlanOptions o;
  o.exchange = ExchangeEngine::datatype;
  return o;
}

/// The slabs of `a` (collective over a.comm()): a view of a's own block when
/// it is already laid out so, otherwise a copy moved by a plan.
template <class T, int D, class M, class O>
FileSlab<T, D> to_file_slab(const DistArray<T, D, M, O>& a) {
  const int ranks = ranks_of(a.comm());
  const Layout<D> slab = file_slab_layout<D>(a.layout().shape(), ranks);
  if (is_file_slab(a, ranks)) return FileSlab<T, D>::over(slab, a.comm(), const_cast<T*>(a.local().data()));
  Plan<T, D, M, O, Kokkos::LayoutRight> plan(a.layout(), slab, a.comm(), one_off_plan());
  FileSlab<T, D> host = FileSlab<T, D>::allocated(slab, a.comm());
  if constexpr (std::is_same_v<M, Kokkos::HostSpace>) {
    plan.execute(a, host.array);
  } else {
    DistArray<T, D, M> device_slab(slab, a.comm());
    plan.execute(a, device_slab);
    Kokkos::deep_copy(host.array.local(), device_slab.local());
  }
  return host;
}

/// Empty slabs for `into`'s shape, to read into; the same memory as `into`
/// when it is laid out as the slabs.
template <class T, int D, class M, class O>
FileSlab<T, D> file_slab_for(DistArray<T, D, M, O>& into) {
  const int ranks = ranks_of(into.comm());
  const Layout<D> slab = file_slab_layout<D>(into.layout().shape(), ranks);
  if (is_file_slab(into, ranks)) return FileSlab<T, D>::over(slab, into.comm(), into.local().data());
  return FileSlab<T, D>::allocated(slab, into.comm());
}

/// Moves the slabs into `into` (collective).
template <class T, int D, class M, class O>
void from_file_slab(const FileSlab<T, D>& slab, DistArray<T, D, M, O>& into) {
  if (is_file_slab(into, ranks_of(into.comm()))) return;  // the slabs are its memory
  Plan<T, D, M, Kokkos::LayoutRight, O> plan(slab.layout, into.layout(), into.comm(), one_off_plan());
  if constexpr (std::is_same_v<M, Kokkos::HostSpace>) {
    plan.execute(slab.array, into);
  } else {
    DistArray<T, D, M> device_slab(slab.layout, into.comm());
    Kokkos::deep_copy(device_slab.local(), slab.array.local());
    plan.execute(device_slab, into);
  }
}

}  // namespace distarray::detail
