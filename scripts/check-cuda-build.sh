#!/usr/bin/env bash
# The CUDA variant, compiled (no GPU needed): the library, the
# kernel and array tests, the examples and the Python module (DLPack on GPU
# memory) in ./build-cuda,
# for the CUDA backend of Kokkos (scripts/kokkos.sh --cuda, cached like the
# OpenMP build) on Hopper (sm_90),
# compiled by clang++-16 with Debian 12's CUDA 11.8 toolkit
# (nvidia-cuda-toolkit, in the non-free component, which this script adds to
# the bookworm source where it is missing: about 1.6 GB to download once).
# Nothing runs: that takes a GPU (scripts/check-gpu.sh).  Without the Kokkos
# tarball the stage is skipped with a message, except under CI (CI=true).
#   DISTARRAY_KOKKOS_TARBALL   another Kokkos source tarball
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/clang_cuda.sh
source scripts/lib/kokkos_tarball.sh
kokkos_tarball_or_skip cuda "compile the CUDA variant"

clang_cuda_install
prefix=$(DISTARRAY_CUDA_COMPILER=clang scripts/kokkos.sh --cuda "$tarball" | tail -n 1)
clang_cuda_tools_first
mkdir -p build-cuda
log=build-cuda/build.log
# -O1: nothing runs here, and the build is this stage's time.
cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
  -DKokkos_ROOT="$prefix" -DCMAKE_CXX_COMPILER=clang++-16 \
  "-DCMAKE_CXX_FLAGS=$(clang_cuda_flags)" -DDISTARRAY_BUILD_BENCHMARKS=OFF -DDISTARRAY_CHECK_HEADERS=OFF \
  -DDISTARRAY_PYTHON=ON \
  > $log 2>&1 || { cat $log; exit 1; }
grep "distarray: Kokkos" $log
# The tests of the kernels and of arrays in device memory, not the CLI or the
# suites of schedules, plans and checkpoints: the library compiles its steps'
# kernels itself (redist/detail/exec/step.hpp), so those add mostly host code
# here, compiled twice (host and device passes), and most of the stage's time
# on 2 cores (scripts/check-gpu.sh builds them all).
targets=(test_core_mpi test_packer test_kernels_mpi distarray_python)
show_errors() { grep -B2 -A12 'error:' $log | head -n 80; exit 1; }
cmake --build build-cuda -j "$(nproc)" --target "${targets[@]}" >> $log 2>&1 || show_errors
cmake --build build-cuda/examples -j "$(nproc)" >> $log 2>&1 || show_errors
echo "cuda: the library, kernel and array tests, examples and the Python module compile and link" \
  "for CUDA (not run: no GPU here)"
