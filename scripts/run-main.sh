#!/usr/bin/env bash
# Set-up, then the main job: the distarray command on its built-in default case.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
mpiexec -n 4 build/tools/distarray/distarray show --svg build/show.svg
mpiexec -n 4 build/tools/distarray/distarray redist --shape 4096x4096 --repeat 20 --verify --json build/redist.json
