#!/usr/bin/env bash
# The GPU issue's figures from a CUDA build that exists already (made by
# scripts/check-gpu.sh, or compiled elsewhere for this GPU): the kernel
# benchmark and the 8192^2 transposes, each record in OUT_DIR as JSON beside
# the text it printed, and one table on standard output.
#   scripts/gpu-figures.sh BUILD_DIR OUT_DIR ["what the test suite did"]
# BUILD_DIR needs bench/bench_pack_kernels (DISTARRAY_BUILD_BENCHMARKS=ON) and
# tools/distarray/distarray; mpiexec on PATH.
set -euo pipefail
build=${1:?usage: gpu-figures.sh BUILD_DIR OUT_DIR [TESTS]} out=${2:?usage: gpu-figures.sh BUILD_DIR OUT_DIR [TESTS]}
tests=${3:-not run}
mkdir -p "$out"
"$build/bench/bench_pack_kernels" --size 8192 --json "$out/pack_kernels.json" > "$out/pack_kernels.txt"
transpose() {  # ranks from to json [options]
  mpiexec -n "$1" "$build/tools/distarray/distarray" redist --shape 8192x8192 --from "$2" --to "$3" \
    --repeat 10 --verify --json "$4" "${@:5}" > "${4%.json}.txt"
}
transpose 4 "block,* on 4x1" "*,block on 1x4" "$out/transpose_np4.json"
transpose 1 "block,* on 1x1" "*,block on 1x1" "$out/transpose_np1.json"
# The 4 ranks on each engine that moves device arrays (the automatic choice is above).
for engine in alltoallv shared; do
  transpose 4 "block,* on 4x1" "*,block on 1x4" "$out/transpose_np4_$engine.json" --exchange $engine
done
# The shared engine's one pass: the destination node-shared (device blocks opened through CUDA IPC;
# never run before: a failure leaves its text, the error, and the other figures stand).
transpose 4 "block,* on 4x1" "*,block on 1x4" "$out/transpose_np4_one_pass.json" --exchange shared --node-shared ||
  echo "one pass into node-shared device arrays failed: $out/transpose_np4_one_pass.txt"
python3 - "$out" "$tests" <<'PY'
import json, os, sys
out, tests = sys.argv[1], sys.argv[2]
driver = "/proc/driver/nvidia/version"
print(f"distarray on {open(driver).readline().strip() if os.path.exists(driver) else 'a GPU'}")
print(f"test suite: {tests}")
print("\nkernels (bench_pack_kernels, 8192^2 f64, rank 0 of 4; copy = device-to-device deep_copy)")
print(f"{'case':<18}{'pack GB/s':>10}{'unpack GB/s':>13}{'copy GB/s':>11}{'pack/copy':>11}{'unpack/copy':>13}")
kernels = json.load(open(f"{out}/pack_kernels.json"))["rows"]
for r in kernels:
    gb = lambda s: r["bytes"] / s / 1e9
    print(f"{r['case']:<18}{gb(r['pack_s']):>10.1f}{gb(r['unpack_s']):>13.1f}{gb(r['copy_s']):>11.1f}"
          f"{r['copy_s'] / r['pack_s']:>11.2f}{r['copy_s'] / r['unpack_s']:>13.2f}")
print("\n8192^2 f64 transpose (block,*) -> (*,block), ms per execution, slowest rank")
print(f"{'ranks, engine':<13}{'pack':>9}{'staging':>9}{'exchange':>10}{'unpack':>9}{'local':>9}{'total':>9}{'GB/s':>8}  verified")
for name in ("np4", "np4_alltoallv", "np4_shared", "np4_one_pass", "np1"):
    if not os.path.exists(f"{out}/transpose_{name}.json"):
        print(f"{name}: no record (failed)")
        continue
    j = json.load(open(f"{out}/transpose_{name}.json"))
    s = j["seconds"]
    engine = j["exchange"] + ("+1p" if name.endswith("one_pass") else "")  # (one pass: node-shared)
    print(f"{j['ranks']:<3}{engine:<10}" + "".join(f"{s[k] * 1e3:>{w}.1f}" for k, w in
          (("pack", 9), ("staging", 9), ("exchange", 10), ("unpack", 9), ("local", 9), ("total", 9)))
          + f"{j['bandwidth_gb_s']:>8.1f}  {j['verified']}")
copy_s = [r for r in kernels if r["case"] == "one row"][0]["copy_s"]
total = lambda name: json.load(open(f"{out}/transpose_{name}.json"))["seconds"]["total"]
print(f"\n1 rank: {total('np1') / copy_s:.2f} x a device copy of the array ({copy_s * 1e3:.2f} ms)")
print(f"4 ranks, shared engine: {total('np4_shared') / copy_s:.1f} x a device copy of the array")
if os.path.exists(f"{out}/transpose_np4_one_pass.json"):
    print(f"4 ranks, one pass into node-shared arrays: {total('np4_one_pass') / copy_s:.1f} x a device copy")
PY
