#!/usr/bin/env bash
# Two builds of the distarray command, before and after a change, in
# alternating launches on the same cases (4 ranks, f64 transposes
# (block,*) -> (*,block) into row- and column-major blocks, 256^2 and
# 1024^2): each launch's final engine, the timed executions the automatic
# engine spent trying engines, and the mean and median per execution.
# Alternating launches share the machine's quiet and busy stretches, which
# on 2 cores move a case's time by 2x from launch to launch.
#   bench/ab_redist.sh BEFORE_BINARY AFTER_BINARY [launches, default 6]
set -euo pipefail
before=$1 after=$2 launches=${3:-6}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
for _ in $(seq "$launches"); do
  for c in "256x256 row-major 5000" "256x256 column-major 5000" "1024x1024 row-major 1000" \
           "1024x1024 column-major 1000"; do
    read -r shape order repeat <<< "$c"
    for which in before after; do
      out=$(mpiexec -n 4 "${!which}" redist --shape "$shape" --to-order "$order" --repeat "$repeat")
      printf '%-6s %-10s %-13s reps %-5s ends on %-10s trials %3s  mean %s ms  %s\n' "$which" "$shape" "$order" \
        "$repeat" "$(sed -n 's/.*exchange \([^,]*\),.*/\1/p' <<< "$out")" \
        "$(sed -n 's/ *trials *\([0-9]*\).*/\1/p' <<< "$out")" "$(sed -n 's/ *total *\([0-9.]*\) ms.*/\1/p' <<< "$out")" \
        "$(grep "execution   median" <<< "$out" | sed 's/ (each.*//; s/ *execution *//; s/  */ /g')"
    done
  done
done
