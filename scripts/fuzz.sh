#!/usr/bin/env bash
# libFuzzer (clang from Debian) on the parsers that read untrusted input: the
# layout text, the distarray command's options and checkpoint metadata.
# Builds ./build-fuzz, then fuzzes each target for SECONDS (default 60) from
# its seed corpus in tests/fuzz/corpus.  A crash leaves its input in
# build-fuzz/crashes/<target>/ and fails the run: copy it to
# tests/fuzz/regressions/<target>/ with the fix, where the replay tests keep it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p build-fuzz
log=build-fuzz/build.log
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DDISTARRAY_FUZZ=ON \
  -DDISTARRAY_BUILD_EXAMPLES=OFF -DDISTARRAY_BUILD_BENCHMARKS=OFF > $log 2>&1 \
  || { cat $log; exit 1; }
targets=(layout cli_args checkpoint_meta)
cmake --build build-fuzz -j 2 --target "${targets[@]/#/fuzz_}" >> $log 2>&1 \
  || { tail -50 $log; exit 1; }
export ASAN_OPTIONS=detect_leaks=0  # MPI's allocations live to exit; fuzzing looks for memory errors
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/crashes/$t"
  echo "fuzz: $t for ${seconds}s"
  # The inputs of past crashes run first, with the seed corpus.
  inputs=("build-fuzz/corpus/$t" "tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && inputs+=("tests/fuzz/regressions/$t")
  build-fuzz/tests/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="build-fuzz/crashes/$t/" "${inputs[@]}" 2>&1 | tail -n 12
done
