#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/transfer/slab_transfer.hpp is internal: include <distarray/io.hpp>"
#endif
// A file slab written or read with its checksum sums, band by band: each
// band of about a megabyte is hashed right after it moved, while it is still
// in cache (a second pass over the whole slab would read it from memory
// again), and the disk works meanwhile: on a restore the kernel's
// sequential read-ahead fetches the next bands while one is hashed, on a
// save each band's write-back starts as soon as it is written
// (page_cache.hpp), so that the commit's fsync finds less to do.  (Asking
// for the whole slab ahead with POSIX_FADV_WILLNEED made cold restores at 4
// ranks slower: 0.68 against 0.90 of the bare read.)  A compressed dataset
// moves whole: its chunks would be decompressed or written collectively
// once per band.

#include <distarray/io/detail/durability/page_cache.hpp>
#include <distarray/io/detail/transfer/file_slab.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

namespace distarray::detail {

/// Bytes of a band (a few rows of it fit in any L2 cache).
inline constexpr std::uint64_t band_bytes = std::uint64_t(1) << 20;

/// Calls `each(band)` over the rows of `slab` in bands, as often on every
/// rank (the band count of the slab with the most rows; the transfers are
/// collective calls), empty bands past this rank's rows.  One band when
/// `storage` is {0, 0} (not contiguous: compressed).  `each` gets the band
/// and its file range.
template <class T, int D, class F>
void for_each_band(const FileSlab<T, D>& slab, std::pair<std::uint64_t, std::uint64_t> storage, F&& each) {
  const std::uint64_t row_bytes = std::uint64_t(slab.row_size()) * sizeof(T);
  const index_t most = slab.layout.dist(0).local_extent(0);  // block: the first slab is the largest
  const index_t rows =
      storage.second == 0 ? std::max<index_t>(most, 1)
                          : std::max<index_t>(1, index_t(band_bytes / std::max<std::uint64_t>(row_bytes, 1)));
  const index_t bands = std::max<index_t>(1, (most + rows - 1) / rows);
  for (index_t b = 0; b < bands; ++b) {
    const index_t first = std::min(b * rows, slab.rows());
    const LocalRows band{first, std::min(rows, slab.rows() - first)};
    each(band, storage.first + std::uint64_t(slab.first_row() + first) * row_bytes,
         std::uint64_t(band.count) * row_bytes);
  }
}

/// Writes `slab` into dataset `ds` of `file`; returns this rank's format 3 sums of it.
template <class T, int D>
KeyedSums write_slab(const Hdf5File& file, hid_t ds, const std::string& type, const FileSlab<T, D>& slab) {
  const auto storage = file.storage_of(ds);
  const PageCacheHints hints(file.path());
  const KeyedSummer<T, D> hash(slab.layout, *slab.array.grid().coord(), slab.row_offset);
  KeyedSums sums;
  for_each_band(slab, storage, [&](LocalRows band, std::uint64_t offset, std::uint64_t bytes) {
    file.write(ds, type, slab.pieces(band), slab.extents(band), slab.data(band.first));
    if (storage.second) hints.start_write_back(offset, bytes);
    sums += hash(slab.data(), band);
  });
  return sums;
}

/// Reads dataset `ds` (named `name`, of element type `type`) into `slab`;
/// returns this rank's format 3 sums of what it read when `hashed`.
template <class T, int D>
KeyedSums read_slab(const Hdf5File& file, hid_t ds, const std::string& name, const std::string& type,
                    const FileSlab<T, D>& slab, bool hashed = true) {
  const KeyedSummer<T, D> hash(slab.layout, *slab.array.grid().coord(), slab.row_offset);
  KeyedSums sums;
  // Unhashed, nothing needs to stay in cache: one transfer, as for a compressed dataset.
  const auto storage = hashed ? file.storage_of(ds) : std::pair<std::uint64_t, std::uint64_t>{0, 0};
  for_each_band(slab, storage, [&](LocalRows band, std::uint64_t, std::uint64_t) {
    file.read(ds, name, type, slab.pieces(band), slab.extents(band), slab.data(band.first));
    if (hashed) sums += hash(slab.data(), band);
  });
  return sums;
}

}  // namespace distarray::detail
