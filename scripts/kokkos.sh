#!/usr/bin/env bash
# Builds upstream Kokkos with the OpenMP and Serial backends from a source
# tarball into a cache prefix outside the source tree, and prints that prefix
# (the last line of output) for -DKokkos_ROOT=.  Does nothing when the prefix
# already holds a build of the same tarball (its SHA-256 is recorded there).
#
#   scripts/kokkos.sh [TARBALL]     default: ../shared/third_party/kokkos-4.6.01.tar.gz
#   DISTARRAY_CACHE_DIR             default: ${XDG_CACHE_HOME:-$HOME/.cache}/distarray
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(realpath -m "${1:-../shared/third_party/kokkos-4.6.01.tar.gz}")
[ -f "$tarball" ] || { echo "kokkos: no tarball at $tarball" >&2; exit 2; }
cache=${DISTARRAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/distarray}
name=$(basename "$tarball" .tar.gz)
sum=$(sha256sum "$tarball" | cut -c1-64)
prefix="$cache/$name-openmp"
if [ "$(cat "$prefix/.distarray-tarball-sha256" 2>/dev/null)" = "$sum" ]; then
  echo "kokkos: $prefix is built from this tarball already" >&2
  echo "$prefix"
  exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/distarray-kokkos.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "kokkos: building $name (OpenMP + Serial) into $prefix" >&2
tar xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
rm -rf "$prefix"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=20 \
  -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" > "$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j "$(nproc)" > "$work/build.log" 2>&1 || { tail -n 40 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" > /dev/null
echo "$sum" > "$prefix/.distarray-tarball-sha256"
echo "kokkos: installed in $prefix" >&2
echo "$prefix"
