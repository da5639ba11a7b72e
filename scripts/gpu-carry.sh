#!/usr/bin/env bash
# The GPU machine's time is short (../shared/gpu/README.md): build here, run there.
#   scripts/gpu-carry.sh pack   here, as root: clang 16 + CUDA 11.8 (as CI's CUDA
#       stage), Kokkos for CUDA (scripts/kokkos.sh), a Release build of the
#       CLI, the kernel benchmark and the engine, plan, kernel and array tests
#       in ./build-gpu, then .gpu/ (ignored; under the device tool's 64 MiB):
#       that build without objects, the Debian packages the machine lacks
#       (../shared/gpu/debs.list, prep-device.sh) and the CUDA 11.8 runtime.
#   scripts/gpu-carry.sh run    there (the device tool's run, carry [".gpu"]):
#       unpacks it all, then, each output under $OUT: the device segments
#       between 4 processes (CUDA IPC), scripts/gpu-figures.sh, and the tests
#       on device memory, 4 ranks first; about 6 minutes.
#   DISTARRAY_CUDA_ARCH   a Kokkos_ARCH_ name, default HOPPER90 (H100, H200)
set -uo pipefail
cd "$(dirname "$0")/.."
targets=(distarray_cli bench_pack_kernels test_exchange_mpi test_redist_mpi test_packer test_kernels_mpi test_core_mpi)
tests="test_exchange_mpi|test_redist_mpi|test_packer|test_kernels_mpi|test_core_mpi"

pack() {
  set -e
  source scripts/lib/clang_cuda.sh
  clang_cuda_install
  local prefix shared=../shared
  prefix=$(DISTARRAY_CUDA_COMPILER=clang scripts/kokkos.sh --cuda "$shared/third_party/kokkos-4.6.01.tar.gz" |
    tail -n 1)
  clang_cuda_tools_first
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
    -DCMAKE_CXX_COMPILER=clang++-16 "-DCMAKE_CXX_FLAGS=$(clang_cuda_flags)" -DDISTARRAY_BUILD_BENCHMARKS=ON \
    -DDISTARRAY_CHECK_HEADERS=OFF -DDISTARRAY_PYTHON=OFF -DDISTARRAY_BUILD_EXAMPLES=OFF > /dev/null
  ninja -C build-gpu -j "$(nproc)" "${targets[@]}"
  mkdir -p .gpu/debs
  grep -qx '/.gpu/' .git/info/exclude 2> /dev/null || echo '/.gpu/' >> .git/info/exclude
  (cd .gpu/debs && apt-get download -qq $(cat "../../$shared/gpu/debs.list"))
  cp "$shared/gpu/prep-device.sh" .gpu/
  cp -L /usr/lib/x86_64-linux-gnu/libcudart.so.11.0 .gpu/
  # The build's absolute paths (CTest's) are this checkout's: `run` links them there.
  pwd -P > .gpu/source_path
  tar -czf .gpu/build-gpu.tar.gz --exclude='*.o' --exclude='*.a' --exclude='*.ninja' --exclude='.ninja_*' \
    --exclude=CMakeFiles build-gpu
  du -sh .gpu
}

run() {
  local out=${OUT:?run is for the device tool, which sets OUT} start=$SECONDS src
  stamp() { echo "== $1 at $((SECONDS - start)) s"; }
  bash .gpu/prep-device.sh .gpu/debs > "$out/prep.log" 2>&1
  tail -n 2 "$out/prep.log"
  cp .gpu/libcudart.so.11.0 /usr/lib/x86_64-linux-gnu/ && ldconfig  # the CUDA 13 driver runs it
  [ -e /usr/bin/cmake ] || ln -s "$(command -v cmake)" /usr/bin/cmake
  src=$(cat .gpu/source_path)
  [ "$(pwd -P)" = "$src" ] || { mkdir -p "$(dirname "$src")" && ln -sfn "$(pwd -P)" "$src"; }
  cd "$src" && tar -xzf .gpu/build-gpu.tar.gz
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  export OMPI_MCA_plm_rsh_agent=/bin/false OMPI_MCA_btl_vader_single_copy_mechanism=none
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  stamp "device segments between 4 processes (CUDA IPC)"
  timeout 90 mpiexec -n 4 build-gpu/tests/test_exchange_mpi \
    --gtest_filter='DeviceSegments.*:ExchangeChoice.*:Nodes.*' > "$out/ipc_np4.txt" 2>&1
  echo "rc $?"
  grep -E "OK \]|FAILED|PASSED|rror" "$out/ipc_np4.txt" | sort | uniq -c | head -n 20
  stamp "figures"
  timeout 240 scripts/gpu-figures.sh build-gpu "$out/figures" "after the figures: ctest*.log" \
    > "$out/figures.txt" 2>&1
  echo "rc $?"
  cat "$out/figures.txt"
  stamp "tests on device memory, 4 ranks"
  (cd build-gpu && timeout 150 ctest -j 2 --timeout 140 --output-on-failure \
    -R "(test_exchange_mpi|test_redist_mpi)\.np4$") > "$out/ctest_np4.log" 2>&1
  echo "rc $?"
  grep -E "tests passed|Failed|\*\*\*|Timeout" "$out/ctest_np4.log" | head -n 30
  stamp "the other rank counts"
  (cd build-gpu && timeout 170 ctest -j 4 --timeout 160 --output-on-failure -R "$tests" -E "\.np4$") \
    > "$out/ctest.log" 2>&1
  echo "rc $?"
  grep -E "tests passed|Failed|\*\*\*|Timeout" "$out/ctest.log" | head -n 40
  stamp "done"
}

case "${1:-}" in
  pack) pack ;;
  run) run 2>&1 | tee "${OUT:?}/run.log" ;;
  *) echo "usage: scripts/gpu-carry.sh pack|run" >&2; exit 2 ;;
esac
