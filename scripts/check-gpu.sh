#!/usr/bin/env bash
# For a machine with an NVIDIA GPU, from a clone with ../shared beside it (or
# DISTARRAY_KOKKOS_TARBALL): builds Kokkos for CUDA (scripts/kokkos.sh --cuda:
# nvcc_wrapper, patched for CUDA 13) and distarray against it in ./build-gpu,
# runs the whole test suite on device memory, then the kernel benchmark and
# the 8192^2 transposes, and prints one table of the figures the GPU issue
# asks for.  Needs the project's dependencies (scripts/setup.sh's packages,
# or their equivalents) and nvcc on PATH.
#   DISTARRAY_CUDA_ARCH   a Kokkos_ARCH_ name, default HOPPER90
#   CHECK_GPU_TESTS=0     skip the test suite (figures only)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvcc > /dev/null || { echo "check-gpu: no nvcc on PATH" >&2; exit 1; }
nvidia-smi -L 2> /dev/null || echo "check-gpu: nvidia-smi found no GPU (the run will fail)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
prefix=$(DISTARRAY_CUDA_COMPILER=nvcc scripts/kokkos.sh --cuda ${DISTARRAY_KOKKOS_TARBALL:+"$DISTARRAY_KOKKOS_TARBALL"} |
  tail -n 1)
mkdir -p build-gpu
log=build-gpu/build.log
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" > $log 2>&1 || { cat $log; exit 1; }
cmake --build build-gpu -j "$(nproc)" >> $log 2>&1 || { grep -B2 -A12 'error' $log | head -n 80; exit 1; }
tests="not run"
if [ "${CHECK_GPU_TESTS:-1}" != 0 ]; then
  start=$SECONDS
  (cd build-gpu && ctest --output-on-failure --timeout 600 -j 4) > build-gpu/ctest.log 2>&1 &&
    tests="passed" || tests="FAILED (build-gpu/ctest.log)"
  tests="$tests in $((SECONDS - start)) s; $(grep -E 'tests passed' build-gpu/ctest.log || true)"
fi

out=build-gpu/figures
mkdir -p $out
build-gpu/bench/bench_pack_kernels --size 8192 --json $out/pack_kernels.json > $out/pack_kernels.txt
transpose() {  # ranks from to json
  mpiexec -n "$1" build-gpu/tools/distarray/distarray redist --shape 8192x8192 --from "$2" --to "$3" \
    --repeat 10 --verify --json "$4" > "${4%.json}.txt"
}
transpose 4 "block,* on 4x1" "*,block on 1x4" $out/transpose_np4.json
transpose 1 "block,* on 1x1" "*,block on 1x1" $out/transpose_np1.json
python3 - "$out" "$tests" <<'PY'
import json, sys
out, tests = sys.argv[1], sys.argv[2]
print(f"distarray on {open('/proc/driver/nvidia/version').readline().strip() if __import__('os').path.exists('/proc/driver/nvidia/version') else 'a GPU'}")
print(f"test suite: {tests}")
print("\nkernels (bench_pack_kernels, 8192^2 f64, rank 0 of 4; copy = device-to-device deep_copy)")
print(f"{'case':<18}{'pack GB/s':>10}{'unpack GB/s':>13}{'copy GB/s':>11}{'pack/copy':>11}{'unpack/copy':>13}")
for r in json.load(open(f"{out}/pack_kernels.json")):
    gb = lambda s: r["bytes"] / s / 1e9
    print(f"{r['case']:<18}{gb(r['pack_s']):>10.1f}{gb(r['unpack_s']):>13.1f}{gb(r['copy_s']):>11.1f}"
          f"{r['copy_s'] / r['pack_s']:>11.2f}{r['copy_s'] / r['unpack_s']:>13.2f}")
print("\n8192^2 f64 transpose (block,*) -> (*,block), ms per execution, slowest rank")
print(f"{'ranks':<7}{'pack':>9}{'staging':>9}{'exchange':>10}{'unpack':>9}{'total':>9}{'GB/s':>8}  verified")
for n in (4, 1):
    j = json.load(open(f"{out}/transpose_np{n}.json"))
    s = j["seconds"]
    print(f"{n:<7}" + "".join(f"{s[k] * 1e3:>{w}.1f}" for k, w in
          (("pack", 9), ("staging", 9), ("exchange", 10), ("unpack", 9), ("total", 9)))
          + f"{j['bandwidth_gb_s']:>8.1f}  {j['verified']}")
one_row = [r for r in json.load(open(f"{out}/pack_kernels.json")) if r["case"] == "one row"][0]
total = json.load(open(f"{out}/transpose_np1.json"))["seconds"]["total"]
print(f"\n1 rank: {total / one_row['copy_s']:.2f} x a device copy of the array ({one_row['copy_s'] * 1e3:.1f} ms)")
PY
