#!/usr/bin/env bash
# libFuzzer (clang from Debian) on the parsers that read untrusted input: the
# layout text, the distarray command's options and checkpoint metadata.
# Builds its targets in ./build-asan (scripts/lib/sanitized_build.sh, the
# sanitizer stage's build), then fuzzes each target for SECONDS (default 60)
# from its seed corpus in tests/fuzz/corpus.  A crash leaves its input in
# build-asan/crashes/<target>/ and fails the run: copy it to
# tests/fuzz/regressions/<target>/ with the fix, where the replay tests keep it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
source scripts/lib/sanitized_build.sh
targets=(layout options checkpoint_meta)
sanitized_build "${targets[@]/#/fuzz_}"
export ASAN_OPTIONS=detect_leaks=0  # MPI's allocations live to exit; fuzzing looks for memory errors
for t in "${targets[@]}"; do
  mkdir -p "build-asan/corpus/$t" "build-asan/crashes/$t"
  echo "fuzz: $t for ${seconds}s"
  # The inputs of past crashes run first, with the seed corpus.
  inputs=("build-asan/corpus/$t" "tests/fuzz/corpus/$t")
  [ -d "tests/fuzz/regressions/$t" ] && inputs+=("tests/fuzz/regressions/$t")
  build-asan/tests/fuzz/fuzz_$t -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="build-asan/crashes/$t/" "${inputs[@]}" 2>&1 | tail -n 12
done
