# Sourced by the scripts that build third-party source releases (Kokkos, the
# benchmark peers) into a cache prefix outside the source tree.
#
#   cached_build LABEL TARBALL SUFFIX [CMAKE_ARGS...]
#
# configures, builds and installs the project in TARBALL into
# $cache/<tarball name>-SUFFIX and prints that prefix as its last line of
# output.  Does nothing when the prefix already holds a build of the same
# tarball, patch and CMAKE_ARGS (one SHA-256 of the three is recorded there).
# Progress goes to stderr.
#   DISTARRAY_CACHE_DIR   default: ${XDG_CACHE_HOME:-$HOME/.cache}/distarray
#   CACHED_BUILD_PATCH    a patch applied with -p1 inside the unpacked source
# In CMAKE_ARGS, @SRC@ stands for the unpacked source folder (for a compiler
# the project ships, such as Kokkos' nvcc_wrapper).
cached_build() {
  local label=$1 tarball=$2 suffix=$3
  shift 3
  tarball=$(realpath -m "$tarball")
  [ -f "$tarball" ] || { echo "$label: no tarball at $tarball" >&2; return 2; }
  local cache=${DISTARRAY_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/distarray}
  local name sum prefix work src
  name=$(basename "$tarball" .tar.gz)
  sum=$( (cat "$tarball" ${CACHED_BUILD_PATCH:+"$CACHED_BUILD_PATCH"}; printf '%s\n' "$@") | sha256sum | cut -c1-64)
  prefix="$cache/$name-$suffix"
  if [ "$(cat "$prefix/.distarray-tarball-sha256" 2>/dev/null)" = "$sum" ]; then
    echo "$label: $prefix is built from this tarball already" >&2
    echo "$prefix"
    return 0
  fi
  work=$(mktemp -d "${TMPDIR:-/tmp}/distarray-$label.XXXXXX")
  echo "$label: building $name into $prefix" >&2
  tar xzf "$tarball" -C "$work"
  src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  if [ -n "${CACHED_BUILD_PATCH:-}" ] && ! patch -s -p1 -d "$src" < "$CACHED_BUILD_PATCH" >&2; then
    echo "$label: $CACHED_BUILD_PATCH does not apply to $name" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$prefix"
  if ! cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
    "${@//@SRC@/$src}" \
    > "$work/configure.log" 2>&1; then
    cat "$work/configure.log" >&2
    rm -rf "$work"
    return 1
  fi
  if ! cmake --build "$work/build" -j "$(nproc)" > "$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log" >&2
    rm -rf "$work"
    return 1
  fi
  cmake --install "$work/build" > /dev/null
  echo "$sum" > "$prefix/.distarray-tarball-sha256"
  rm -rf "$work"
  echo "$label: installed in $prefix" >&2
  echo "$prefix"
}
