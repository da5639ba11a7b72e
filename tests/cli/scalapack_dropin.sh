#!/usr/bin/env bash
# The ScaLAPACK program of examples/scalapack_dropin, built against
# ScaLAPACK and with distarray's drop-in ahead of it, prints the same
# checksums at several rank counts; only the drop-in build says (under
# DISTARRAY_SCALAPACK_VERBOSE) that distarray served pdgemr2d_ and pdtran_.
# usage: scalapack_dropin.sh MPIEXEC REFERENCE DROPIN
set -u
mpiexec=$1 reference=$2 dropin=$3
fail() { echo "FAILED: $*"; exit 1; }
for ranks in 1 4 6; do
  theirs=$(DISTARRAY_SCALAPACK_VERBOSE=1 timeout 120 "$mpiexec" -n $ranks "$reference" 301 211 2>&1) ||
    fail "reference at $ranks ranks: $theirs"
  ours=$(DISTARRAY_SCALAPACK_VERBOSE=1 timeout 120 "$mpiexec" -n $ranks "$dropin" 301 211 2>&1) ||
    fail "drop-in at $ranks ranks: $ours"
  echo "$theirs" | grep -q "served by distarray" && fail "the reference build called distarray: $theirs"
  for routine in PDGEMR2D PDTRAN; do
    echo "$ours" | grep -q "$routine served by distarray" || fail "the drop-in did not serve $routine: $ours"
  done
  a=$(echo "$theirs" | grep checksum) b=$(echo "$ours" | grep checksum)
  [ -n "$a" ] && [ "$a" = "$b" ] || fail "at $ranks ranks ScaLAPACK printed '$a', the drop-in '$b'"
  echo "$ranks ranks: $b"
done
echo "drop-in checks passed"
