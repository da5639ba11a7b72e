#pragma once
// FFTW-MPI's set-up for the whole of a program that uses it (the fft2d
// example, the peer comparison): fftw_mpi_init on construction,
// fftw_mpi_cleanup on destruction, both inside MPI's lifetime.
//
//   return support::driver_main("fft2d", argc, argv, [](int count, char** words) {
//     const support::FftwMpi fftw;
//     return run(count, words);
//   });

#include <fftw3-mpi.h>

namespace distarray::support {

struct FftwMpi {
  FftwMpi() { fftw_mpi_init(); }
  ~FftwMpi() { fftw_mpi_cleanup(); }
  FftwMpi(const FftwMpi&) = delete;
  FftwMpi& operator=(const FftwMpi&) = delete;
};

}  // namespace distarray::support
