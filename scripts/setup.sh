#!/usr/bin/env bash
# Installs distarray's Debian packages (only those missing), then configures
# and builds the project in ./build and installs its Python package.  Safe to
# run again: it does only what is left to do.  Usage: scripts/setup.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake libopenmpi-dev openmpi-bin libtrilinos-kokkos-dev
          libhdf5-openmpi-dev hdf5-tools python3-h5py libgtest-dev libbenchmark-dev
          libfftw3-dev libfftw3-mpi-dev libscalapack-openmpi-dev clang libclang-rt-14-dev
          python3-dev python3-numpy python3-pybind11 python3-mpi4py python3-pytest
          python3-venv python3-wheel python3-matplotlib python3-mpi4py-fft)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# OpenMPI refuses to run as root and to oversubscribe small machines unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1

mkdir -p build  # the log lives inside the build folder
log=build/build.log
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" > $log 2>&1 || { cat $log; exit 1; }
cmake --build build -j "$(nproc)" >> $log 2>&1 || { tail -n 60 $log; exit 1; }
# The Python package into the interpreter's site-packages (where it was built).
if grep -q '^DISTARRAY_PYTHON_INSTALL_DIR' build/CMakeCache.txt && [ -f build/python/distarray/__init__.py ]; then
  cmake --install build --component python >> $log 2>&1 || { tail -n 20 $log; exit 1; }
  python=$(grep '^Python3_EXECUTABLE' build/CMakeCache.txt | cut -d= -f2)
  (cd / && "$python" -c "import distarray") || { echo "setup: $python cannot import distarray" >&2; exit 1; }
  echo "setup: Python package installed for $python ($(grep '^DISTARRAY_PYTHON_INSTALL_DIR' build/CMakeCache.txt | cut -d= -f2))"
fi
echo "setup: build ready in ./build (log: $log)"
