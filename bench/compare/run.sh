#!/usr/bin/env bash
# The whole comparison in one command: every case of bench/compare at 2 and 4
# ranks, 256^2, 1024^2 and 4096^2, double and complex<double>, with every
# peer (heFFTe and COSTA built by scripts/peers.sh into the cache, once).
# Stores docs/bench/compare_np{2,4}.json (the one record of a run) and puts
# the Markdown tables made from them (bench/compare/tables.py) into
# docs/performance.md between the "bench/compare" markers, and the figures
# and the README's summary of them (bench/tables.py).
#   bench/compare/run.sh [bench_compare options, e.g. --reps 20]
set -euo pipefail
cd "$(dirname "$0")/../.."
peers=$(scripts/peers.sh | tail -n 1)
scripts/setup.sh -DCMAKE_PREFIX_PATH="$peers"
grep "bench_compare peers" build/build.log
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
# COSTA runs OpenMP threads; with 2 per rank, 4 ranks on 2 cores spin against
# each other (costa::transform took ~1000x longer).  One thread per rank for
# every method, as distarray's Serial build has.
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive OMP_PROC_BIND=false
out=docs/bench
# The build's Python (setup.sh's packages: matplotlib for the figures), not
# whichever python3 comes first on PATH.
python=$(grep '^Python3_EXECUTABLE:' build/CMakeCache.txt | cut -d= -f2)
python=${python:-python3}
for np in 2 4; do
  mpiexec -n $np build/bench/bench_compare --json $out/compare_np$np.json "$@"
done
table=$(mktemp)
{
  # The CPU's name: these VMs change hardware between sessions (an Intel Xeon, an AMD EPYC).
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  echo "Measured $(date -u +%Y-%m-%d) with \`bench/compare/run.sh${*:+ $*}\` on $(nproc --all) cores${cpu:+ ($cpu)}"
  echo "($(mpirun --version | head -n 1)). Peer columns: peer time / distarray time (above 1:"
  echo "distarray is faster); last column: distarray time / the bare \`MPI_Alltoallv\` floor."
  echo
  "$python" bench/compare/tables.py $out/compare_np2.json $out/compare_np4.json
} > "$table"
awk -v table="$table" '
  /<!-- bench\/compare: begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
  /<!-- bench\/compare: end -->/ { skip = 0 }
  !skip' docs/performance.md > docs/performance.md.new
mv docs/performance.md.new docs/performance.md
rm -f "$table"
# The figures drawn from the records, in both documents.
"$python" bench/tables.py --update docs/performance.md
"$python" bench/tables.py --update README.md
echo "compare: $out/compare_np{2,4}.json, tables and figures in docs/performance.md and README.md"
