#!/usr/bin/env bash
# The test suite again on a threaded Kokkos backend: upstream Kokkos
# (default 4.6.01 from ../shared/third_party) with OpenMP, built by
# scripts/kokkos.sh into a cache folder, distarray built against it in
# ./build-openmp, the ctest suite run with 2 OpenMP threads per rank (the
# tests of file systems and processes and the schedule sweep only in Serial).
# Without the tarball the stage is skipped with a message, except under CI
# (CI=true), where that fails the run.
#   DISTARRAY_KOKKOS_TARBALL   another Kokkos source tarball
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/kokkos_tarball.sh
kokkos_tarball_or_skip openmp "test the OpenMP backend"
prefix=$(scripts/kokkos.sh "$tarball" | tail -n 1)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
mkdir -p build-openmp
log=build-openmp/build.log
# Not the benchmarks, the header checks or the soak tests (the Serial stage
# builds those); the Python module and its tests, yes (Kokkos is shared).
# -O1: the tests check results, not speed, and the Serial stage builds at
# -O3; the build was most of this stage's time.
cmake -S . -B build-openmp -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
  -DKokkos_ROOT="$prefix" -DDISTARRAY_BUILD_BENCHMARKS=OFF \
  -DDISTARRAY_CHECK_HEADERS=OFF -DDISTARRAY_BUILD_SOAK=OFF -DDISTARRAY_PYTHON=ON > $log 2>&1 || { cat $log; exit 1; }
grep "distarray: Kokkos" $log
cmake --build build-openmp -j "$(nproc)" >> $log 2>&1 || { tail -n 60 $log; exit 1; }
# Up to 7 ranks x 2 threads share the cores: OpenMP threads that spin while
# waiting (the default) starve the other ranks — a 10 s test took over 600 s
# here.  Passive threads sleep; unbound threads let the OS spread them, and
# ranks Open MPI does not bind to one core each (its default for 2 or fewer)
# give their threads both cores.
export OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive OMP_PROC_BIND=false OMPI_MCA_hwloc_base_binding_policy=none
echo "openmp: the test suite with $OMP_NUM_THREADS OpenMP threads per rank"
start=$(date +%s)
# The CLI's tests of full disks, killed writers and interrupted saves test
# file systems, MPI-IO and processes, and the schedule sweep host code, not
# the backend: the Serial stage runs them.  So does it the plan suite at 6
# and 7 ranks, whose rank counts are host code too: here, at 2 threads per
# rank on 2 cores, those two took 218 s of the stage's 558 (CI, 2026-12-01)
# and its 1 to 4 ranks run the OpenMP kernels.
(cd build-openmp && ctest --output-on-failure --timeout 900 -j 2 -E \
  '^(cli\.(full_disk_.*|killed_series_writer_.*|save_safety|interrupted_save_keeps_the_old_file)|test_redist\.sweep_ps[0-9]|test_redist_mpi\.np[67])$')
echo "openmp: passed in $(( $(date +%s) - start )) s"
