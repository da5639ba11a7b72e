#pragma once
#ifndef DISTARRAY_INCLUDING_DETAIL
#error "distarray/io/detail/checksum/global_checksum.hpp is internal: include <distarray/io.hpp>"
#endif
// The checksum of a whole distributed array: every rank's sums (checksum.hpp
// for formats 3 to 5, checksum_v2.hpp for 1 and 2) added over the
// communicator, then seeded (docs/checkpoint-format.md).

#include <distarray/core/layout.hpp>
#include <distarray/core/mpi_check.hpp>
#include <distarray/io/detail/checksum/checksum.hpp>
#include <distarray/io/detail/checksum/checksum_v2.hpp>
#include <distarray/io/element_type.hpp>

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace distarray::detail {

inline std::vector<index_t> as_vector(const auto& extents) { return {extents.begin(), extents.end()}; }

/// The format 3 to 5 checksum of an array from every rank's sums
/// (collective); `step`: the series step it belongs to (format 5).
inline std::uint64_t keyed_checksum(const KeyedSums& mine, const std::string& type,
                                    const std::vector<index_t>& shape, MPI_Comm comm,
                                    std::optional<std::uint64_t> step = std::nullopt) {
  std::uint64_t sums[2] = {mine.set0, mine.set1};
  DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT64_T, MPI_SUM, comm));
  return keyed_checksum({sums[0], sums[1]}, checksum_seed(type, shape, step));
}

/// The checksum of a whole array in format `version` (collective): `data`
/// is this rank's row-major block of `layout`.  Formats 1 and 2 are computed
/// only to verify files saved by earlier versions.
template <class T, int D>
std::uint64_t global_checksum(const Layout<D>& layout, const std::optional<Coord<D>>& c, const T* data,
                              MPI_Comm comm, std::uint64_t version = checkpoint_format_version) {
  const std::string type = element_type_name_in_format(element_type_name<T>(), version);
  if (version < 3) {
    std::uint64_t sum = c ? element_hash_sum<T, D>(layout, *c, data) : 0;
    DISTARRAY_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_UINT64_T, MPI_SUM, comm));
    return version < 2 ? sum : sum + checksum_seed(type, as_vector(layout.shape()));  // format 1 had no seed
  }
  return keyed_checksum(c ? keyed_sums<T, D>(layout, *c, data) : KeyedSums{}, type, as_vector(layout.shape()),
                        comm);
}

}  // namespace distarray::detail
