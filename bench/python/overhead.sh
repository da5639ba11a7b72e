#!/usr/bin/env bash
# Python against C++ on the same plan: `distarray redist` (C++, its own timer
# around plan.execute) and bench/python/execute_overhead.py (plan.execute
# from a Python loop), (block,*) -> (*,block) of N x N doubles at 2 and 4
# ranks, N = 4096 and 256; prints per-call times and Python's overhead.
#   bench/python/overhead.sh [build folder, default build]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
export PYTHONPATH=$build/python${PYTHONPATH:+:$PYTHONPATH}
python=$(grep -m1 '^Python3_EXECUTABLE' "$build/CMakeCache.txt" | cut -d= -f2)
json=$(mktemp)
printf "%-6s %-10s %14s %14s %12s %10s\n" ranks size "C++ ms/call" "Python ms/call" "overhead us" "ratio"
for np in 2 4; do
  for n in 4096 256; do
    calls=$([ "$n" -gt 1000 ] && echo 10 || echo 2000)
    # The best of three launches of each: the machine is shared.
    best_cxx=$(for _ in 1 2 3; do
      mpiexec -n $np "$build/tools/distarray/distarray" redist --shape ${n}x$n --repeat $calls --json "$json" > /dev/null
      "$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['total'])" "$json"
    done | sort -g | head -n 1)
    best_py=$(for _ in 1 2 3; do
      mpiexec -n $np "$python" bench/python/execute_overhead.py --n $n --calls $calls |
        "$python" -c "import json,sys; print(json.load(sys.stdin)['seconds_per_call'])"
    done | sort -g | head -n 1)
    "$python" -c "import sys; np, n, c, p = sys.argv[1:]; c, p = float(c), float(p)
print(f'{np:<6} {n + \"^2\":<10} {c * 1e3:14.3f} {p * 1e3:14.3f} {(p - c) * 1e6:12.1f} {p / c:10.3f}')" $np $n "$best_cxx" "$best_py"
  done
done
rm -f "$json"
