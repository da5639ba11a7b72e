#pragma once
// Compression of checkpoint arrays: chunked datasets with HDF5's shuffle and
// deflate filters, written by parallel HDF5's collective filtered writes
// (HDF5 1.10.2 and later; an HDF5 without them or without deflate refuses
// with CheckpointError on every rank).  Any HDF5 reader (h5py, h5dump)
// reads them as plain arrays.
//
//   series.write("u", u, distarray::Compression::deflate(4));

#include <distarray/core/error.hpp>
#include <distarray/core/layout.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace distarray {

struct Compression {
  int level = 0;  ///< 0: stored contiguous, uncompressed; 1-9: shuffle + deflate at this level

  /// Shuffle + deflate at `level` (1 fastest .. 9 smallest); UsageError otherwise.
  static Compression deflate(int level = 4) {
    if (level < 1 || level > 9)
      throw UsageError("deflate level " + std::to_string(level) + " is outside 1..9");
    return {level};
  }

  /// Bytes a chunk holds at most.
  static constexpr std::uint64_t chunk_bytes = 4 << 20;

  /// The chunk shape of an array moved as `slabs` (block over dimension 0,
  /// the rest whole): one rank's rows, whole in the other dimensions, cut to
  /// at most chunk_bytes from the first dimension on, so that a chunk is
  /// mostly written by one rank.  Empty: stored contiguous (no compression,
  /// or an array with a zero extent, which cannot be chunked).
  template <int D>
  std::vector<std::uint64_t> chunk_shape(const Layout<D>& slabs, std::size_t element_bytes) const {
    if (level == 0 || slabs.global_size() == 0) return {};
    std::vector<std::uint64_t> chunk(D);
    for (int d = 0; d < D; ++d)
      chunk[d] = std::uint64_t(d == 0 ? slabs.dist(0).block_size() : slabs.shape()[d]);
    for (int d = 0; d < D; ++d) {
      std::uint64_t inner = element_bytes;  // bytes of one index of dimension d
      for (int e = d + 1; e < D; ++e) inner *= chunk[e];
      if (inner * chunk[d] <= chunk_bytes) break;
      chunk[d] = std::max<std::uint64_t>(1, chunk_bytes / inner);
      if (inner <= chunk_bytes) break;
    }
    return chunk;
  }
};

}  // namespace distarray
