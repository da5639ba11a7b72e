#!/usr/bin/env bash
# The automatic engine on a machine that turns busy: `distarray redist`'s
# default case (the 2048^2 f64 transpose (block,*) -> (*,block), row-major;
# every side typed) at 2 ranks, 300 executions, started on a quiet machine,
# with as many busy loops as cores started 1.5 s in (the engine has chosen by
# then), once per engine: auto, alltoallv and datatype.  Prints each one's
# final engine, mean and median per execution and the run's wall time.  Run
# it on an otherwise quiet machine, from a built tree.
#   bench/engine_watch.sh [distarray binary, default build/tools/distarray/distarray]
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-build/tools/distarray/distarray}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for engine in auto alltoallv datatype; do
  start=$(date +%s.%N)
  mpiexec -n 2 "$tool" redist --repeat 300 --exchange "$engine" > "$out" 2>&1 &
  run=$!
  sleep 1.5
  loops=()
  for _ in $(seq "$(nproc)"); do
    (while :; do :; done) &
    loops+=($!)
  done
  wait $run
  kill "${loops[@]}"
  printf '%-10s ends on %-22s mean %9s ms, median %9s ms, %5.1f s in all\n' "$engine" \
    "$(sed -n 's/.*exchange \([^,]*\),.*/\1/p' "$out")" "$(sed -n 's/ *total *\([0-9.]*\) ms.*/\1/p' "$out")" \
    "$(sed -n 's/.*median *\([0-9.]*\) ms.*/\1/p' "$out")" "$(echo "$(date +%s.%N) - $start" | bc)"
done
