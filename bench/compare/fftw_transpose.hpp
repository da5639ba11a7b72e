#pragma once
// FFTW-MPI's transpose (fftw_mpi_plan_many_transpose, FFTW_MEASURE) of an
// n0 x n1 array of rows in blocks into n1 x n0: distarray's (block,*) ->
// column-major (*,block).  A complex element is transposed as a pair of
// doubles (howmany = 2), as FFTW's complex transforms do.

#include "elements.hpp"

#include <distarray/core/error.hpp>

#include <fftw3-mpi.h>

#include <algorithm>

namespace compare {

template <class T>
class FftwTranspose {
 public:
  static constexpr ptrdiff_t pair = is_complex<T> ? 2 : 1;

  FftwTranspose(index_t n0, index_t n1, MPI_Comm comm) {
    ptrdiff_t local_n0, start0, local_n1, start1;
    const ptrdiff_t n[2] = {ptrdiff_t(n0), ptrdiff_t(n1)};
    const ptrdiff_t alloc =
        fftw_mpi_local_size_many_transposed(2, n, pair, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, comm,
                                            &local_n0, &start0, &local_n1, &start1);
    in_ = fftw_alloc_real(std::size_t(std::max<ptrdiff_t>(alloc, 1)));
    out_ = fftw_alloc_real(std::size_t(std::max<ptrdiff_t>(alloc, 1)));
    plan_ = fftw_mpi_plan_many_transpose(n0, n1, pair, FFTW_MPI_DEFAULT_BLOCK, FFTW_MPI_DEFAULT_BLOCK, in_,
                                         out_, comm, FFTW_MEASURE);
    if (!plan_) throw distarray::Error("fftw_mpi_plan_many_transpose failed");
  }
  FftwTranspose(const FftwTranspose&) = delete;
  FftwTranspose& operator=(const FftwTranspose&) = delete;
  ~FftwTranspose() {
    fftw_destroy_plan(plan_);
    fftw_free(in_);
    fftw_free(out_);
  }
  T* in() { return reinterpret_cast<T*>(in_); }
  T* out() { return reinterpret_cast<T*>(out_); }
  void operator()() { fftw_execute(plan_); }

 private:
  double *in_, *out_;
  fftw_plan plan_;
};

}  // namespace compare
