#!/usr/bin/env bash
# A save over a good checkpoint on a file system that fills up mid-write
# fails on every rank with the OS error, and the good checkpoint survives.
# Needs a tiny tmpfs: skipped (exit 77) where this user cannot mount one.
# usage: full_disk.sh MPIEXEC DISTARRAY WORKDIR
set -u
mpiexec=$1 tool=$2 dir=$3/full_disk
mkdir -p "$dir"
umount "$dir" 2>/dev/null
if ! mount -t tmpfs -o size=1m tmpfs "$dir" 2>/dev/null; then
  echo "skipped: cannot mount a 1 MiB tmpfs at $dir (needs root)"
  exit 77
fi
trap 'umount "$dir"' EXIT
file="$dir/state.h5"
fail() { echo "FAILED: $*"; exit 1; }
"$mpiexec" -n 2 "$tool" save --shape 64x48 --from "block,* on 2x1" --file "$file" --dataset good || fail "the small save"
for ranks in 2 3 4; do
  # 400x400 doubles: 1.28 MB, more than the file system holds.
  out=$(timeout 120 "$mpiexec" -n $ranks sh -c "\"$tool\" save --shape 400x400 --from 'cyclic(7),block on ${ranks}x1' \
        --file '$file' --dataset good; echo \"rank \$OMPI_COMM_WORLD_RANK exit \$?\"" 2>&1)
  status=$?
  echo "$out" | grep -v "^rank"
  [ $status -ne 124 ] || fail "the save on a full disk hangs at $ranks ranks"
  [ "$(echo "$out" | grep -c 'exit 1$')" -eq $ranks ] || fail "not every rank of $ranks exits 1: $out"
  echo "$out" | grep -q "No space left on device" || fail "the error does not say the disk is full"
  ls "$dir" | grep -q distarray-partial && fail "a temporary file is left behind"
  "$mpiexec" -n 3 "$tool" restore --file "$file" --dataset good --to "cyclic,block on 1x3" --verify ||
    fail "the good checkpoint was damaged at $ranks ranks"
done
echo "a full disk loses nothing"
