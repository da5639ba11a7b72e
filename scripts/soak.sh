#!/usr/bin/env bash
# Opt-in reliability runs (not part of CI): the soak — one plan executed
# 10,000 times and 1,000 checkpoint save/restore cycles at 2 and 4 ranks with
# resident memory at start and end — and, with --large, one message above
# 2 GiB at real size (2 ranks, ~11 GB of memory).  Builds with scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
cmake --build build -j 2 --target test_soak test_large > /dev/null
cd build
for n in 2 4; do
  # Bounded with ROMIO; then reported with OpenMPI's default OMPIO, which
  # leaks in collective reads of strided selections (docs/reliability.md).
  OMPI_MCA_io=romio321 mpiexec -n "$n" tests/test_soak
  DISTARRAY_SOAK_BOUND_KIB=1000000 mpiexec -n "$n" tests/test_soak --gtest_filter='*SaveRestore*'
done
if [ "${1:-}" = "--large" ]; then mpiexec -n 2 tests/test_large; fi
