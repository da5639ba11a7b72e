#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer: builds the library and its
# tests in ./build-asan and runs the serial tests and the MPI tests at 2 and 4
# ranks.  Any sanitizer report fails the run (UB is fatal; leaks other than
# MPI's own, see tests/sanitizers/lsan.supp, fail at exit).
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDISTARRAY_SANITIZE=ON \
  -DDISTARRAY_BUILD_BENCHMARKS=OFF > build-asan.log 2>&1 || { cat build-asan.log; exit 1; }
targets=(test_core test_redist test_core_mpi test_redist_mpi test_io_mpi fuzz_layout fuzz_cli_args
         fuzz_checkpoint_meta)
cmake --build build-asan -j 2 --target "${targets[@]}" >> build-asan.log 2>&1 || { tail -50 build-asan.log; exit 1; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-asan
ctest --output-on-failure --timeout 900 -j 2 \
  -R '^(test_core|test_redist|test_redist\.sweep.*|test_(core|redist|io)_mpi\.np[24]|fuzz_replay_.*)$'
