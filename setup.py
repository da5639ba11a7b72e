"""The distarray Python package, built by the project's CMake (pyproject.toml).

    python3 -m venv --system-site-packages env
    env/bin/pip install --no-build-isolation ./

configures the project for the installing interpreter with the module on
and the tests, tools, examples and benchmarks off, builds the module
(target distarray_python) and installs it with the package's Python files.
CMake finds MPI, parallel HDF5, Kokkos, numpy and pybind11 as in any build
and names what it misses.  The environment steers it:
  CMAKE_ARGS           more -D options, e.g. "-DKokkos_ROOT=/opt/kokkos"
  DISTARRAY_BUILD_DIR  build in (or take the module from) this CMake build
                       folder; one configured already is built as it is
                       (for the interpreter it was configured for)
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default: the CPU count)
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))

# pip builds the wheel with setuptools' bdist_wheel, which lives in the wheel
# package: without it setuptools says only "invalid command 'bdist_wheel'".
if {"bdist_wheel", "dist_info"} & set(sys.argv):
    try:
        import wheel  # noqa: F401
    except ImportError:
        sys.exit(f"distarray: {sys.executable} has setuptools but not wheel, which pip needs to build the "
                 "package: `pip install wheel` (with --no-build-isolation), or Debian's python3-wheel seen "
                 "through a venv made with --system-site-packages")


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(distarray VERSION ([0-9.]+)", f.read()).group(1)


def pybind11_args():
    """pybind11's CMake files where it is a Python package of this interpreter (pip's pybind11)."""
    try:
        import pybind11
        return [f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"]
    except (ImportError, AttributeError):
        return []  # CMake looks for it itself (Debian's python3-pybind11 has its files in /usr/lib/cmake)


class BuildWithCMake(build_ext):
    """Builds distarray._core with CMake instead of compiling sources itself."""

    def build_extension(self, ext):
        cmake = shutil.which("cmake")
        if cmake is None:
            sys.exit("distarray: building the Python module needs CMake 3.20 or later on PATH (Debian: cmake)")
        build = os.environ.get("DISTARRAY_BUILD_DIR") or os.path.join(os.path.abspath(self.build_temp), "cmake")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            self.configure(cmake, build)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run([cmake, "--build", build, "--target", "distarray_python", "-j", jobs], check=True)
        built = os.path.join(build, "python", "distarray", "_core" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not os.path.exists(built):
            sys.exit(f"distarray: {build} holds no module for this interpreter ({sys.executable}, expected "
                     f"{built}): it was configured for another Python")
        os.makedirs(os.path.dirname(self.get_ext_fullpath(ext.name)), exist_ok=True)
        shutil.copyfile(built, self.get_ext_fullpath(ext.name))

    def configure(self, cmake, build):
        args = ["-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={sys.executable}", "-DDISTARRAY_PYTHON=ON",
                "-DDISTARRAY_BUILD_TESTS=OFF", "-DDISTARRAY_BUILD_TOOLS=OFF", "-DDISTARRAY_BUILD_EXAMPLES=OFF",
                "-DDISTARRAY_BUILD_BENCHMARKS=OFF", "-DDISTARRAY_CHECK_HEADERS=OFF"]
        args += pybind11_args() + shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run([cmake, "-S", ROOT, "-B", build] + args, check=True)


setup(
    version=project_version(),
    packages=["distarray"],
    package_dir={"distarray": "python/distarray"},
    ext_modules=[Extension("distarray._core", sources=[])],
    cmdclass={"build_ext": BuildWithCMake},
    # setuptools' own build folder beside CMake's ./build, not inside it
    options={"build": {"build_base": "build-python"}},
)
