#!/usr/bin/env bash
# Builds the benchmark peers that Debian does not package — heFFTe (FFTW
# backend) and COSTA (with its ScaLAPACK wrappers over Debian's ScaLAPACK) —
# from their source releases into cache prefixes outside the source tree, and
# prints the CMAKE_PREFIX_PATH that finds both (the last line of output).
# Each is built once per tarball.  A peer whose tarball is missing is left
# out with a message; bench/compare then says "not built" for it.
#
#   scripts/peers.sh            tarballs from ../shared/third_party
#   DISTARRAY_HEFFTE_TARBALL, DISTARRAY_COSTA_TARBALL   other source releases
#   DISTARRAY_CACHE_DIR         default: ${XDG_CACHE_HOME:-$HOME/.cache}/distarray
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/cached_build.sh
third_party=../shared/third_party
heffte=${DISTARRAY_HEFFTE_TARBALL:-$third_party/heffte-2.4.1.tar.gz}
costa=${DISTARRAY_COSTA_TARBALL:-$third_party/COSTA-2.3.2.tar.gz}
prefixes=()
if [ -f "$heffte" ]; then
  prefixes+=("$(cached_build heffte "$heffte" fftw -DHeffte_ENABLE_FFTW=ON -DHeffte_ENABLE_TESTING=OFF | tail -n 1)")
else
  echo "peers: no heFFTe tarball at $heffte: heFFTe left out" >&2
fi
if [ -f "$costa" ]; then
  scalapack=$(ls /usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so* 2>/dev/null | head -n 1 || true)
  [ -n "$scalapack" ] || { echo "peers: Debian's libscalapack-openmpi is missing (scripts/setup.sh installs it)" >&2; exit 1; }
  prefixes+=("$(cached_build costa "$costa" scalapack -DCOSTA_SCALAPACK=CUSTOM \
    -DCOSTA_SCALAPACK_LINK_LIBRARIES="$scalapack" | tail -n 1)")
else
  echo "peers: no COSTA tarball at $costa: COSTA left out" >&2
fi
(IFS=';'; echo "${prefixes[*]}")
