#!/usr/bin/env bash
# A plan whose wisdom names a slower engine: the 4096^2 complex block-cyclic
# grid change cyclic(64),cyclic(64) 1x2 -> 2x1 at 4 ranks (bench/compare's
# "b64 1x2->2x1"), with a wisdom file that names `datatype` where the shared
# window is faster here, 100 executions, three rounds.  Prints each run's
# final engine, its median per execution, and the engine the wisdom names
# afterwards.  Before the automatic engine watched a wisdom's choice, a plan
# kept it for its whole life.  Run it on an otherwise quiet machine, from a
# built tree.
#   bench/stale_wisdom.sh [distarray binary, default build/tools/distarray/distarray]
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:-build/tools/distarray/distarray}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive OMP_PROC_BIND=false
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
case=(--shape 4096x4096 --type c128 --from "cyclic(64),cyclic(64) on 1x2" --to "cyclic(64),cyclic(64) on 2x1")
mpiexec -n 4 "$tool" redist "${case[@]}" --repeat 8 --wisdom "$dir/measured" > /dev/null
sed 's/\t[a-z]*$/\tdatatype/' "$dir/measured" > "$dir/stale"
for round in 1 2 3; do
  cp "$dir/stale" "$dir/wisdom"
  mpiexec -n 4 "$tool" redist "${case[@]}" --repeat 100 --wisdom "$dir/wisdom" > "$dir/out"
  printf 'round %d: ends on %-22s median %9s ms; the wisdom now names %s\n' "$round" \
    "$(sed -n 's/.*exchange \([^,]*\),.*/\1/p' "$dir/out")" "$(sed -n 's/.*median *\([0-9.]*\) ms.*/\1/p' "$dir/out")" \
    "$(awk -F'\t' '$1 == "engine" {print $NF}' "$dir/wisdom")"
done
