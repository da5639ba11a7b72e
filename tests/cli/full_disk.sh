#!/usr/bin/env bash
# A save over a good checkpoint on a file system that fills up mid-write
# fails on every rank with the OS error, and the good checkpoint survives; a
# save on a completely full disk fails cleanly; series steps that fill the
# disk (data, metadata, marker; compressed or not) fail on every rank and
# every step saved before restores.
# A compressed step far larger than the room left, appended to a series,
# fails on every rank within seconds (it hung at 2 and 4 ranks) and leaves
# no journal.  Run with OMPI_MCA_io set to choose OMPIO or ROMIO, and with
# NO_FALLOCATE (a library preloaded into every rank whose fallocate fails
# with EOPNOTSUPP, as on NFS v3 and many FUSE and parallel file systems):
# space is then reserved by writing, and the same holds.
# Needs a tiny tmpfs: skipped (exit 77) where this user cannot mount one.
# usage: full_disk.sh MPIEXEC DISTARRAY WORKDIR [NO_FALLOCATE]
set -u
mpiexec=$1 tool=$2 dir=$3/full_disk${OMPI_MCA_io:+_$OMPI_MCA_io}${4:+_no_fallocate}
[ -n "${4:-}" ] && export LD_PRELOAD=$4
echo "MPI-IO: ${OMPI_MCA_io:-default (OMPIO)}, fallocate: $([ -n "${4:-}" ] && echo "no, space reserved by writing" || echo yes)"
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
for ranks in 1 2 4; do
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
      columns=$((200 + step * 100))                        # the disk fills in about 6 steps
      [ -n "$compress" ] && columns=$((300 + step * 300))  # (raw bytes are reserved for compressed data)
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
# A step of 2000x2000 doubles (32 MB) appended to a series with about 100 KiB
# left, plain and compressed: every rank fails within seconds with the OS
# error and what was needed, no journal is left, and the series is intact.
for ranks in 1 2 4; do
  rm -f "$dir"/*
  for step in 0 1 2; do
    "$mpiexec" -n 2 "$tool" save --shape 60x600 --from "block,* on 2x1" --file "$dir/ser.h5" --array u \
      --step $step > /dev/null || fail "saving step $step of the series"
  done
  dd if=/dev/zero of="$dir/filler" bs=1k count=$(($(df -k --output=avail "$dir" | tail -1) - 100)) 2>/dev/null
  for compress in "" "--compress 1"; do
    start=$SECONDS
    out=$(run_ranks $ranks "\"$tool\" save --shape 2000x2000 --from 'block,* on ${ranks}x1' --file '$dir/ser.h5' \
          --array u --step 3 $compress")
    [ $? -ne 124 ] || fail "a large step appended to a series on a full disk hangs at $ranks ranks $compress"
    all_exit "$out" $ranks 1 || fail "large step, $ranks ranks $compress: not every rank exits 1: $out"
    [ "$(echo "$out" | grep -c 'cannot reserve [0-9]* bytes for the data.*No space left on device')" -ge 1 ] ||
      fail "large step, $ranks ranks $compress: no 'cannot reserve ... No space left on device': $out"
    [ -e "$dir/ser.h5.distarray-journal" ] && fail "large step, $ranks ranks $compress: a journal is left"
    echo "large step appended at $ranks ranks ${compress:-uncompressed}: refused on every rank in $((SECONDS - start)) s"
  done
  "$mpiexec" -n 1 "$tool" ls "$dir/ser.h5" | grep -q "3 steps, 3 complete" || fail "the series lost a step ($ranks ranks)"
  "$mpiexec" -n 2 "$tool" restore --file "$dir/ser.h5" --array u --step 2 --to "block,* on 2x1" --verify \
    > /dev/null 2>&1 || fail "step 2 does not restore after the refused large step ($ranks ranks)"
done
echo "a full disk loses nothing"
