#pragma once
// Damage to a checkpoint's data behind HDF5's and distarray's back, as a
// failing disk or a stray write would leave it.

#include <gtest/gtest.h>
#include <hdf5.h>
#include <mpi.h>

#include <fstream>
#include <string>

namespace distarray::testing {

/// Overwrites `count` bytes of dataset `name`'s contiguous raw data in file
/// `path`, from byte `at` of it, with `bytes` (rank 0; then every rank waits).
inline void overwrite_raw_data(const std::string& path, const char* name, long long at, const void* bytes,
                               std::streamsize count) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    const haddr_t offset = H5Dget_offset(ds);
    H5Dclose(ds);
    H5Fclose(f);
    std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(std::streamoff(offset) + at);
    io.write(static_cast<const char*>(bytes), count);
    EXPECT_TRUE(offset != HADDR_UNDEF && io) << path << ": could not overwrite dataset " << name;
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace distarray::testing
