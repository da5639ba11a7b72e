# Sourced by the scripts that compile for CUDA with clang++-16 and Debian 12's
# CUDA 11.8 toolkit (non-free nvidia-cuda-toolkit in /usr/lib/cuda): the
# compiler flags Kokkos and distarray both need.  -Wno-unknown-cuda-version:
# clang 16 knows CUDA up to 11.8 only partly and says so for every file;
# --cuda-path: clang would otherwise take a newer CUDA in /usr/local/cuda
# beside the 11.8 headers in /usr/include.  The toolkit's tools (ptxas,
# fatbinary) are in /usr/bin, not /usr/lib/cuda/bin, so clang finds them on
# PATH: clang_cuda_tools_first puts them before any other CUDA's.
clang_cuda_tools_first() { export PATH=/usr/bin:$PATH; }
clang_cuda_flags() {
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  echo "--cuda-path=/usr/lib/cuda -Wno-unknown-cuda-version -include $root/cmake/clang-cuda/undef_noinline.h"
}
