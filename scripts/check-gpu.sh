#!/usr/bin/env bash
# For a machine with an NVIDIA GPU, from a clone with ../shared beside it (or
# DISTARRAY_KOKKOS_TARBALL): builds Kokkos for CUDA (scripts/kokkos.sh --cuda:
# nvcc_wrapper, patched for CUDA 13) and distarray against it in ./build-gpu,
# runs the whole test suite on device memory (the Python module built for the
# machine's python3, whose pytest suite reads blocks with CuPy and includes a
# CuPy and a PyTorch round trip), then the kernel benchmark and
# the 8192^2 transposes (scripts/gpu-figures.sh), and prints one table of
# the figures the GPU issue asks for.  Needs the project's dependencies
# (scripts/setup.sh's packages, or their equivalents) and nvcc on PATH.
#   DISTARRAY_CUDA_ARCH   a Kokkos_ARCH_ name, default HOPPER90
#   CHECK_GPU_TESTS=0     skip the test suite (figures only)
#   DISTARRAY_PYTHON_EXECUTABLE  the module's Python, default: python3 on PATH
#                         (with numpy, mpi4py, pybind11, pytest and CuPy)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvcc > /dev/null || { echo "check-gpu: no nvcc on PATH" >&2; exit 1; }
nvidia-smi -L 2> /dev/null || echo "check-gpu: nvidia-smi found no GPU (the run will fail)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
prefix=$(DISTARRAY_CUDA_COMPILER=nvcc scripts/kokkos.sh --cuda ${DISTARRAY_KOKKOS_TARBALL:+"$DISTARRAY_KOKKOS_TARBALL"} |
  tail -n 1)
mkdir -p build-gpu
log=build-gpu/build.log
python=${DISTARRAY_PYTHON_EXECUTABLE:-$(command -v python3)}
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper" -DDISTARRAY_PYTHON=ON -DPython3_EXECUTABLE="$python" \
  > $log 2>&1 || { cat $log; exit 1; }
cmake --build build-gpu -j "$(nproc)" >> $log 2>&1 || { grep -B2 -A12 'error' $log | head -n 80; exit 1; }
tests="not run"
if [ "${CHECK_GPU_TESTS:-1}" != 0 ]; then
  start=$SECONDS
  (cd build-gpu && ctest --output-on-failure --timeout 600 -j 4) > build-gpu/ctest.log 2>&1 &&
    tests="passed" || tests="FAILED (build-gpu/ctest.log)"
  tests="$tests in $((SECONDS - start)) s; $(grep -E 'tests passed' build-gpu/ctest.log || true)"
fi

scripts/gpu-figures.sh build-gpu build-gpu/figures "$tests"
