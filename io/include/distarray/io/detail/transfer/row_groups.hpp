#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/transfer/row_groups.hpp is internal: include <distarray/io.hpp>"
#endif
// A restore into another layout by row groups, so that it holds a few
// megabytes per rank instead of a copy of the whole array.  A group is
// a range of the array's rows [first, first + count) whose start is a whole
// number of cycles of the destination's dimension-0 distribution: then the
// group in the destination is again a layout of the same kinds (dimension 0
// shortened), and its local rows are consecutive in every rank's row-major
// block.  Each group is read as file slabs of its own (`block` over its rows
// on all ranks: together one contiguous range of the file), hashed band by
// band, and moved by a plan built once for the full groups (and once for a
// shorter last one) into its rows of the destination.  The slab memory
// stays in memory already paged in, and the plan's copies find more of it in
// cache: 68 against 77 ms warm at 4 ranks for 256 MiB (cold: the same within
// the noise; asking the page cache for the next groups ahead changed
// nothing measurable, the disk and the redistribution share two cores).
// Destinations whose dimension 0 is `block` over several processes (one
// cycle is the whole dimension), column-major ones and those in memory the
// host cannot reach are restored through whole slabs.

#include <distarray/io/detail/transfer/file_slab.hpp>
#include <distarray/io/detail/transfer/slab_transfer.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace distarray::detail {

/// About the bytes of a row group per rank (a few bands).
inline constexpr std::uint64_t group_bytes_per_rank = std::uint64_t(4) << 20;

/// Whether arrays of memory space M and storage order O can be restored by row groups.
template <class M, class O>
inline constexpr bool by_row_groups =
    std::conjunction_v<std::is_same<M, Kokkos::HostSpace>, std::is_same<O, Kokkos::LayoutRight>>;

/// The rows of a group for restoring into `layout`, of elements of
/// `element_bytes`, on `ranks` ranks; none when it is restored through whole
/// slabs (see above; also when the array would be one group).
template <int D>
std::optional<index_t> row_group_rows(const Layout<D>& layout, std::size_t element_bytes, int ranks) {
  const Dist1D& rows = layout.dist(0);
  std::uint64_t row_bytes = element_bytes;
  for (int d = 1; d < D; ++d) row_bytes *= std::uint64_t(layout.shape()[d]);
  if (row_bytes == 0) return std::nullopt;
  const index_t cycle = rows.procs() == 1 ? 1 : rows.cycle_length();
  const index_t wanted =
      std::max<index_t>(1, index_t(group_bytes_per_rank * std::uint64_t(ranks) / row_bytes));
  const index_t group = (wanted + cycle - 1) / cycle * cycle;
  if (group >= rows.extent()) return std::nullopt;
  return group;
}

/// `layout` restricted to `count` rows from a row that starts a cycle of its dimension 0.
template <int D>
Layout<D> group_layout(const Layout<D>& layout, index_t count) {
  const Dist1D& rows = layout.dist(0);
  std::array<Dist1D, D> dists;
  for (int d = 1; d < D; ++d) dists[d] = layout.dist(d);
  switch (rows.kind()) {
    case DistKind::collapsed:
      dists[0] = Dist1D::collapsed(count);
      break;
    case DistKind::cyclic:
      dists[0] = Dist1D::cyclic(count, rows.procs());
      break;
    case DistKind::cyclic_b:
      dists[0] = Dist1D::cyclic_b(count, rows.procs(), rows.block_size());
      break;
    default:
      dists[0] = Dist1D::block(count, 1);  // block or block(m) on one process (row_group_rows)
  }
  return Layout<D>(layout.grid(), dists);
}

/// Reads dataset `ds` (`name`, of element type `type`) of `file` into `into`
/// by groups of `group` rows; returns this rank's format 3 sums of what it
/// read when `hashed`.  Collective.  When it throws, `into` may hold part of the data.
template <class T, int D>
KeyedSums read_by_row_groups(const Hdf5File& file, hid_t ds, const std::string& name, const std::string& type,
                             DistArray<T, D, Kokkos::HostSpace>& into, index_t group, bool hashed = true) {
  const MPI_Comm comm = into.comm();
  const int ranks = ranks_of(comm);
  const index_t rows = into.layout().shape()[0];
  const auto slab_layout = [&](index_t count) {
    Index<D> shape = into.layout().shape();
    shape[0] = count;
    return file_slab_layout<D>(shape, ranks);
  };
  using GroupPlan = Plan<T, D, Kokkos::HostSpace>;
  const auto plan_for = [&](index_t count) {
    return std::make_unique<GroupPlan>(slab_layout(count), group_layout(into.layout(), count), comm,
                                       one_off_plan());
  };
  const auto full = plan_for(group);
  std::unique_ptr<GroupPlan> last;  // for a shorter last group
  FileSlab<T, D> slab = FileSlab<T, D>::allocated(slab_layout(group), comm);
  const std::shared_ptr<void> buffer = slab.memory;
  index_t local_row = into.local_size() ? 1 : 0;  // elements of one local row of `into`
  for (int d = 1; d < D; ++d) local_row *= into.local_extents()[d];
  // The rows of a group in `into` (its grid made once: a wrap per group costs a communicator duplicate).
  using Target = DistArray<T, D, Kokkos::HostSpace>;
  Target target = Target::wrap(group_layout(into.layout(), group), comm, into.local().data());
  KeyedSums sums;
  for (index_t first = 0; first < rows; first += group) {
    const index_t count = std::min(group, rows - first);
    if (count < group) {
      last = plan_for(count);
      slab = FileSlab<T, D>::over(slab_layout(count), comm, static_cast<T*>(buffer.get()));
      target = Target::wrap(group_layout(into.layout(), count), comm, into.local().data());
    }
    slab.row_offset = first;
    sums += read_slab(file, ds, name, type, slab, hashed);
    Target rows_of_group =
        target.with_memory(into.local().data() + into.layout().dist(0).local_index(first) * local_row);
    (count < group ? *last : *full).execute(slab.array, rows_of_group);
  }
  return sums;
}

}  // namespace distarray::detail
