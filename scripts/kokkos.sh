#!/usr/bin/env bash
# Builds upstream Kokkos with the OpenMP and Serial backends from a source
# tarball into a cache prefix outside the source tree, and prints that prefix
# (the last line of output) for -DKokkos_ROOT=.  Does nothing when the prefix
# already holds a build of the same tarball.
#
#   scripts/kokkos.sh [TARBALL]     default: ../shared/third_party/kokkos-4.6.01.tar.gz
#   DISTARRAY_CACHE_DIR             default: ${XDG_CACHE_HOME:-$HOME/.cache}/distarray
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/cached_build.sh
cached_build kokkos "${1:-../shared/third_party/kokkos-4.6.01.tar.gz}" openmp \
  -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF
