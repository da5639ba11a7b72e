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
# Installs clang-16 and Debian's CUDA 11.8 toolkit where they are missing
# (root; the toolkit is in non-free, which is added to the bookworm source
# where it is not there yet: about 1.6 GB to download once).
clang_cuda_install() {
  local p sources missing=()
  for p in clang-16 nvidia-cuda-toolkit; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "cuda: installing ${missing[*]} needs root" >&2
      return 1
    fi
    # nvidia-cuda-toolkit is in non-free: add contrib and non-free to the
    # bookworm source (deb822 or one-line format) where they are not there yet.
    # (The first Components line is the bookworm stanza's; non-free-firmware is another component.)
    sources=/etc/apt/sources.list.d/debian.sources
    if [ -f $sources ]; then
      sed -i -E '0,/^Components:/{/^Components:/{/[[:space:]]non-free([[:space:]]|$)/!s/$/ contrib non-free/}}' $sources
    elif [ -f /etc/apt/sources.list ]; then
      sed -i -E '/^deb .* bookworm( |$)/{/[[:space:]]non-free([[:space:]]|$)/!s/$/ contrib non-free/}' /etc/apt/sources.list
    fi
    echo "cuda: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
  fi
}
