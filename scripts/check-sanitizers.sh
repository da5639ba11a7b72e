#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: builds the library and its
# tests in ./build-asan (clang, shared with scripts/fuzz.sh) and runs the
# serial tests and the MPI tests at 2 and 4 ranks.  Any sanitizer report fails
# the run: undefined behaviour is fatal, memory errors abort, and leaks other
# than MPI's own (tests/sanitizers/lsan.supp) fail at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
source scripts/lib/sanitized_build.sh
# Not the distarray command's fuzzer: its option parser is fuzzed under the
# same sanitizers by scripts/fuzz.sh, regressions first, in this build.
sanitized_build test_core test_redist test_core_mpi test_redist_mpi test_io_mpi fuzz_layout fuzz_checkpoint_meta
cd build-asan
# allocator_may_return_null: tests ask for impossible sizes on purpose and expect AllocationError.
asan=abort_on_error=1:detect_stack_use_after_return=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/../tests/sanitizers/lsan.supp:print_suppressions=0
export DISTARRAY_SWEEP_MAX_N=16  # the schedule sweep at N <= 16: still ragged sizes, N < P and N < P*b

echo "sanitizers: serial tests, leaks included"
ASAN_OPTIONS=$asan:detect_leaks=1 ctest --output-on-failure --timeout 900 -j 2 \
  -R '^(test_core|test_redist|test_redist\.sweep.*|fuzz_replay_layout)$'

# The column-major plan sweep (every pair of layouts, three orders, tiles)
# at 2 ranks only: at 4 it took 140 s of this stage's 341 s of tests, and
# its kernels and tables are the same code at either count.
echo "sanitizers: MPI tests at 2 and 4 ranks, memory errors and undefined behaviour"
ASAN_OPTIONS=$asan:detect_leaks=0 ctest --output-on-failure --timeout 900 -j 2 \
  -R '^(test_(core|redist|io)_mpi\.np2|fuzz_replay_checkpoint_meta)$'
ASAN_OPTIONS=$asan:detect_leaks=0 GTEST_FILTER=-Plan.ColumnMajorLocalBlocks ctest --output-on-failure \
  --timeout 900 -j 2 -R '^test_(core|redist|io)_mpi\.np4$'

# Leaks in MPI programs.  OpenMPI is built without frame pointers, so the fast
# unwinder stops inside it and its own allocations would escape the
# suppressions by library name: unwind fully (slow: the two largest plan
# sweeps are left to the run above), and keep OpenMPI's plugins loaded to the
# end so that their frames have names.
echo "sanitizers: MPI tests at 2 ranks, leaks"
export OMPI_MCA_mca_base_component_disable_dlclose=1
export GTEST_FILTER=-Plan.ColumnMajorLocalBlocks:Plan.AllPairsOf2DLayouts
for t in test_core_mpi test_redist_mpi test_io_mpi; do
  ASAN_OPTIONS=$asan:detect_leaks=1:fast_unwind_on_malloc=0 mpiexec -n 2 "tests/$t" > "leaks-$t.log" 2>&1 \
    || { cat "leaks-$t.log"; exit 1; }
  grep -q "PASSED" "leaks-$t.log" && echo "  $t: clean"
done
