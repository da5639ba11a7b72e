#!/usr/bin/env bash
# Set-up, then the whole test suite: serial, MPI (1-7 ranks), CLI and
# consumer-project tests on Debian's Kokkos (Serial); the same suite on
# upstream Kokkos with OpenMP, 2 threads per rank (scripts/check-openmp.sh);
# the AddressSanitizer + UBSan build of the library
# with the serial tests and the MPI tests at 2 and 4 ranks; and a bounded
# libFuzzer run of each parser (DISTARRAY_FUZZ_SECONDS each, default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
(cd build && ctest --output-on-failure --timeout 900 -j 2)
scripts/check-openmp.sh
scripts/check-sanitizers.sh
scripts/fuzz.sh "${DISTARRAY_FUZZ_SECONDS:-60}"
