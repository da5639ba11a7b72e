#pragma once
// The baseline of bench_checkpoint_io: the bare parallel-HDF5 write or read
// of a 2-D array of doubles that a user writes by hand, each rank its block
// as one hyperslab selection, with a collective or an independent transfer.

#include <distarray/core.hpp>
#include <distarray/support/median_timing.hpp>

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

namespace distarray {

/// The array bench_checkpoint_io moves: doubles in two dimensions.
using Array = DistArray<double, 2>;

/// The bare parallel-HDF5 write or read of `a`'s local block as one
/// hyperslab selection (its layout's dimensions block-cyclic in whole blocks).
inline void bare_hdf5(const std::string& path, Array& a, bool write, H5FD_mpio_xfer_t transfer) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  const hid_t file = write ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                           : H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl);
  const hsize_t dims[2] = {hsize_t(a.layout().shape()[0]), hsize_t(a.layout().shape()[1])};
  const hid_t space = H5Screate_simple(2, dims, nullptr);
  const hid_t ds =
      write ? H5Dcreate2(file, "a", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
            : H5Dopen2(file, "a", H5P_DEFAULT);
  // Per dimension: the whole blocks of b every P*b elements, then a partial
  // last block if any; the selection is the union of their products.
  struct Piece {
    hsize_t start, stride, count, block;
  };
  std::array<std::vector<Piece>, 2> pieces;
  hsize_t local[2];
  const auto coord = a.grid().coord();
  for (int d = 0; d < 2; ++d) {
    const Dist1D& dist = a.layout().dist(d);
    const int p = coord ? (*coord)[d] : 0;
    const index_t extent = coord ? dist.local_extent(p) : 0, b = dist.block_size(), whole = extent / b;
    if (whole)
      pieces[d].push_back({hsize_t(p * b), hsize_t(dist.cycle_length()), hsize_t(whole), hsize_t(b)});
    if (extent % b)
      pieces[d].push_back({hsize_t(dist.global_index(p, whole * b)), 1, 1, hsize_t(extent % b)});
    local[d] = hsize_t(extent);
  }
  const hid_t memory = H5Screate_simple(2, local, nullptr);
  H5Sselect_none(space);
  if (a.local_size() == 0) H5Sselect_none(memory);
  for (const Piece& rows : pieces[0])
    for (const Piece& cols : pieces[1]) {
      const hsize_t start[2] = {rows.start, cols.start}, stride[2] = {rows.stride, cols.stride},
                    count[2] = {rows.count, cols.count}, block[2] = {rows.block, cols.block};
      H5Sselect_hyperslab(space, H5S_SELECT_OR, start, stride, count, block);
    }
  const hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, transfer);
  if (write)
    H5Dwrite(ds, H5T_NATIVE_DOUBLE, memory, space, dxpl, a.local().data());
  else
    H5Dread(ds, H5T_NATIVE_DOUBLE, memory, space, dxpl, a.local().data());
  H5Pclose(dxpl);
  H5Sclose(memory);
  H5Sclose(space);
  H5Pclose(fapl);
  H5Dclose(ds);
  H5Fclose(file);
  if (write && a.grid().rank() == 0) {  // durable, as a checkpoint must be (Series and save sync too)
    const int fd = open(path.c_str(), O_RDONLY);
    fsync(fd);
    close(fd);
  }
}

/// Bare collective and independent times of one transfer.
struct Bare {
  double collective, independent;
};

/// The bare write or read of `a` to or from `path`, timed both ways, `before` each repetition.
template <class Before>
Bare bare_times(int reps, Before&& before, const std::string& path, Array& a, bool write) {
  const auto timed = [&](H5FD_mpio_xfer_t mode) {
    return distarray::support::median_slowest_seconds(MPI_COMM_WORLD, reps, before,
                                                      [&] { bare_hdf5(path, a, write, mode); });
  };
  return {timed(H5FD_MPIO_COLLECTIVE), timed(H5FD_MPIO_INDEPENDENT)};
}

}  // namespace distarray
