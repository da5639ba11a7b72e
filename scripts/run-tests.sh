#!/usr/bin/env bash
# Set-up, then the whole test suite: serial, MPI (1-7 ranks), CLI and
# consumer-project tests on Debian's Kokkos (Serial); the suite again on
# upstream Kokkos with OpenMP, 2 threads per rank, the Python module's
# included (scripts/check-openmp.sh); the library, kernel and device-array
# tests, examples and the Python module compiled for CUDA, no GPU needed
# (scripts/check-cuda-build.sh); one clang build with AddressSanitizer, UBSan
# and libFuzzer's coverage, running the serial tests and the MPI tests at 2
# and 4 ranks (scripts/check-sanitizers.sh), then a bounded libFuzzer run of
# each parser (scripts/fuzz.sh, DISTARRAY_FUZZ_SECONDS each, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
# stage NAME COMMAND...: runs COMMAND and says how long it took (CI keeps a budget).
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "== stage $name: $((SECONDS - start)) s (total $SECONDS s)"
}
stage setup scripts/setup.sh
stage serial bash -c 'cd build && ctest --output-on-failure --timeout 900 -j 2'
stage openmp scripts/check-openmp.sh
stage cuda scripts/check-cuda-build.sh
stage sanitizers scripts/check-sanitizers.sh
stage fuzz scripts/fuzz.sh "${DISTARRAY_FUZZ_SECONDS:-20}"
