# Sourced by the CI stages that build on upstream Kokkos.
#   kokkos_tarball_or_skip STAGE WHAT
# sets $tarball to DISTARRAY_KOKKOS_TARBALL or ../shared/third_party's
# Kokkos 4.6.01; where there is none, skips the stage (exit 0) with a
# message, except under CI (CI=true), where that fails the run.
kokkos_tarball_or_skip() {
  local stage=$1 what=$2
  tarball=${DISTARRAY_KOKKOS_TARBALL:-../shared/third_party/kokkos-4.6.01.tar.gz}
  [ -f "$tarball" ] && return 0
  if [ "${CI:-}" = true ]; then
    echo "$stage: no Kokkos tarball at $tarball; CI must $what" >&2
    exit 1
  fi
  echo "$stage: skipped: no Kokkos tarball at $tarball (put ../shared beside the clone to $what)"
  exit 0
}
