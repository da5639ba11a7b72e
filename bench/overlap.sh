#!/usr/bin/env bash
# bench/overlap at 2 and 4 ranks into docs/bench/overlap_np{2,4}.json, the stored records;
# bench/tables.py --update docs/performance.md makes the tables there from them.
#   bench/overlap.sh [bench_overlap options, e.g. --reps 20]
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
for np in 2 4; do
  mpiexec -n $np build/bench/bench_overlap --json docs/bench/overlap_np$np.json "$@"
done
