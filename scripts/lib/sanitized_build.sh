# Sourced by scripts/check-sanitizers.sh and scripts/fuzz.sh: one clang build
# in ./build-asan serves both, AddressSanitizer + UndefinedBehaviorSanitizer
# everywhere and libFuzzer's coverage in the library (DISTARRAY_FUZZ), so the
# instrumented library is compiled once.  -O1 and line tables only
# (AddressSanitizer's recommended level; reports keep their file:line).
#
#   sanitized_build TARGET...   configures ./build-asan where needed, builds TARGETs
sanitized_build() {
  local log=build-asan/build.log
  mkdir -p build-asan
  if [ ! -f build-asan/CMakeCache.txt ]; then
    CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DDISTARRAY_FUZZ=ON \
      -DDISTARRAY_BUILD_BENCHMARKS=OFF -DDISTARRAY_BUILD_EXAMPLES=OFF -DDISTARRAY_PYTHON=OFF \
      -DDISTARRAY_CHECK_HEADERS=OFF > $log 2>&1 || { cat $log; return 1; }
  fi
  cmake --build build-asan -j "$(nproc)" --target "$@" >> $log 2>&1 || { tail -n 50 $log; return 1; }
}
