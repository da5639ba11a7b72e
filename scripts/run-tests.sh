#!/usr/bin/env bash
# Set-up, then the whole test suite: serial, MPI (1-6 ranks), CLI and consumer-project tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure --timeout 900 -j 2
