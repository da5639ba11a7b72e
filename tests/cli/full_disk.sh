#!/usr/bin/env bash
# A save over a good checkpoint on a file system that fills up mid-write
# fails on every rank with the OS error, and the good checkpoint survives; a
# save on a completely full disk fails cleanly; series steps that fill the
# disk (data, metadata, marker; compressed or not) fail on every rank and
# every step saved before restores.
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
# all_exit OUT RANKS S: every rank printed "exit S" (a crash or a hang shows otherwise).
all_exit() { [ "$(echo "$1" | grep -c "exit $3\$")" -eq "$2" ]; }
run_ranks() {  # ranks, command...: every rank's exit status as "rank R exit S"
  local ranks=$1
  shift
  timeout 120 "$mpiexec" -n "$ranks" sh -c "$* ; echo \"rank \$OMPI_COMM_WORLD_RANK exit \$?\"" 2>&1
}
# A completely full disk: the save fails cleanly on every rank (it crashed in MPI_Finalize).
rm -f "$dir"/*
dd if=/dev/zero of="$dir/filler" bs=4k 2>/dev/null
for ranks in 1 2; do
  out=$(run_ranks $ranks "\"$tool\" save --shape 8x8 --from 'block,* on ${ranks}x1' --file '$dir/none.h5'")
  [ $? -ne 124 ] || fail "a save on a completely full disk hangs at $ranks ranks"
  all_exit "$out" $ranks 1 || fail "a save on a completely full disk, $ranks ranks: $out"
  echo "$out" | grep -q "No space left on device" || fail "no 'No space left' at $ranks ranks: $out"
done
rm -f "$dir/filler"
# Series steps of growing size until the disk is full, plain and compressed,
# at 1, 2 and 4 ranks: the failing step (data, metadata or the completion
# marker) fails on every rank with the OS error, nobody hangs or crashes, and
# every step reported saved restores and verifies.
for ranks in 1 2 4; do
  for compress in "" "--compress 1"; do
    rm -f "$dir"/*
    series="$dir/series.h5" full=""
    for step in $(seq 0 60); do
      columns=$((100 + step * 60))                         # the disk fills in about 8 steps
      [ -n "$compress" ] && columns=$((200 + step * 200))  # (raw bytes are reserved for compressed data)
      out=$(run_ranks $ranks "\"$tool\" save --shape 60x$columns --from 'cyclic(7),block on ${ranks}x1' \
            --file '$series' --array u --step $step $compress")
      [ $? -ne 124 ] || fail "series step $step on a full disk hangs at $ranks ranks $compress"
      all_exit "$out" $ranks 0 && continue
      all_exit "$out" $ranks 1 || fail "series step $step, $ranks ranks $compress: not every rank exits 1: $out"
      echo "$out" | grep -q "No space left on device" || fail "series step $step: no 'No space left': $out"
      full=$step
      break
    done
    [ -n "$full" ] || fail "the disk never filled ($ranks ranks $compress)"
    [ -e "$series.distarray-journal" ] && { "$mpiexec" -n 1 "$tool" recover "$series" > /dev/null || fail "recover"; }
    for step in $(seq 0 $((full - 1))); do
      "$mpiexec" -n 2 "$tool" restore --file "$series" --array u --step $step --to "block,* on 2x1" --verify \
        > /dev/null 2>&1 || fail "step $step, saved before the disk filled at step $full, is lost ($ranks ranks $compress)"
    done
    echo "series at $ranks ranks ${compress:-uncompressed}: steps 0..$((full - 1)) saved and restored, step $full refused"
  done
done
echo "a full disk loses nothing"
