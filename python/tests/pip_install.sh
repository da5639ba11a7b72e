#!/usr/bin/env bash
# The package as a user installs it: pip into a fresh venv of PYTHON (no
# download: --no-index, Debian's setuptools and wheel seen through
# --system-site-packages), taking the module from the CMake build folder
# BUILD (setup.py's DISTARRAY_BUILD_DIR; built already by ctest's build),
# then one pytest file under mpiexec with the venv's interpreter, from a
# folder where only the installed package can be imported.
#   pip_install.sh PYTHON SOURCE BUILD WORK MPIEXEC RANKS TEST_FILE
set -euo pipefail
python=$1 source=$2 build=$3 work=$4 mpiexec=$5 ranks=$6 test_file=$7
"$python" -c "import venv, ensurepip" 2> /dev/null ||
  { echo "pip_install: $python cannot make a venv with pip (Debian: python3-venv)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
"$python" -m venv --system-site-packages "$work/env"
DISTARRAY_BUILD_DIR=$build "$work/env/bin/pip" install --no-build-isolation --no-index "$source" \
  > "$work/pip.log" 2>&1 || { tail -n 40 "$work/pip.log"; exit 1; }
cd "$work"
unset PYTHONPATH
installed=$(env/bin/python -c "import distarray; print(distarray.__file__)")
case $installed in
  "$work"/env/*) echo "pip_install: distarray imported from $installed" ;;
  *) echo "pip_install: distarray came from $installed, not the venv" >&2; exit 1 ;;
esac
"$mpiexec" -n "$ranks" env/bin/python -m pytest -q --color=no -p no:cacheprovider "$test_file"
