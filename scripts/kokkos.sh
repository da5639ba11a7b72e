#!/usr/bin/env bash
# Builds upstream Kokkos from a source tarball into a cache prefix outside the
# source tree, and prints that prefix (the last line of output) for
# -DKokkos_ROOT=.  Does nothing when the prefix already holds a build of the
# same tarball (patch and options).  Shared libraries: the Python module, a
# shared object, links Kokkos (a static Kokkos is not position-independent).
#
#   scripts/kokkos.sh [TARBALL]         OpenMP and Serial backends
#   scripts/kokkos.sh --cuda [TARBALL]  CUDA and Serial backends
#   default TARBALL: ../shared/third_party/kokkos-4.6.01.tar.gz
#   DISTARRAY_CACHE_DIR      default: ${XDG_CACHE_HOME:-$HOME/.cache}/distarray
#
# For --cuda:
#   DISTARRAY_CUDA_COMPILER  nvcc: Kokkos' nvcc_wrapper around the nvcc on PATH
#                            (the default where there is one); clang: clang++-16
#                            with Debian's CUDA toolkit in /usr/lib/cuda (what CI
#                            compiles with, scripts/check-cuda-build.sh)
#   DISTARRAY_CUDA_ARCH      a Kokkos_ARCH_ name, default HOPPER90
# Which Kokkos builds with which CUDA: 4.6.01 as released with CUDA 11 and 12;
# with CUDA 13 only patched (nvcc_wrapper's default sm_70 is gone, three
# runtime calls changed), which this script does to any 4.6.01 CUDA build with
# ../shared/third_party/kokkos-4.6.01-cuda13.patch (its changes are guarded by
# the CUDA version); 4.7.01 and later need no patch.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/cached_build.sh
source scripts/lib/clang_cuda.sh
if [ "${1:-}" != --cuda ]; then
  cached_build kokkos "${1:-../shared/third_party/kokkos-4.6.01.tar.gz}" openmp \
    -DCMAKE_CXX_STANDARD=20 -DBUILD_SHARED_LIBS=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF
  exit 0
fi
tarball=${2:-../shared/third_party/kokkos-4.6.01.tar.gz}
compiler=${DISTARRAY_CUDA_COMPILER:-$(command -v nvcc > /dev/null && echo nvcc || echo clang)}
arch=${DISTARRAY_CUDA_ARCH:-HOPPER90}
patch_file=../shared/third_party/kokkos-4.6.01-cuda13.patch
if [[ "$(basename "$tarball")" == kokkos-4.6.01* ]]; then
  [ -f "$patch_file" ] && export CACHED_BUILD_PATCH=$(realpath "$patch_file") ||
    echo "kokkos: no $patch_file: Kokkos 4.6.01 will not build with CUDA 13" >&2
fi
common=(-DCMAKE_CXX_STANDARD=20 -DBUILD_SHARED_LIBS=ON -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF
        "-DKokkos_ARCH_$arch=ON")
case $compiler in
  nvcc) cached_build kokkos "$tarball" "cuda-nvcc-$arch" "${common[@]}" \
          -DCMAKE_CXX_COMPILER=@SRC@/bin/nvcc_wrapper -DKokkos_ENABLE_CUDA_LAMBDA=ON ;;
  clang) clang_cuda_tools_first
         cached_build kokkos "$tarball" "cuda-clang-$arch" "${common[@]}" -DCMAKE_CXX_COMPILER=clang++-16 \
           -DKokkos_CUDA_DIR=/usr/lib/cuda "-DCMAKE_CXX_FLAGS=$(clang_cuda_flags)" ;;
  *) echo "kokkos: DISTARRAY_CUDA_COMPILER is nvcc or clang, not $compiler" >&2; exit 2 ;;
esac
