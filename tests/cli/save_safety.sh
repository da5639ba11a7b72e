#!/usr/bin/env bash
# Saves that cannot lose or corrupt a checkpoint, and restores that cannot hang:
# two jobs saving to one path, a symbolic link where the old temporary name
# was, a long file name and one too long, a 400-byte path, a FIFO given to restore, dataset
# names with and without a leading '/'.
# usage: save_safety.sh MPIEXEC DISTARRAY WORKDIR
set -u
mpiexec=$1 tool=$2 dir=$3/save_safety
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAILED: $*"; exit 1; }
save() { timeout 120 "$mpiexec" -n 2 "$tool" save --shape 96x80 --from "block,* on 2x1" "$@"; }
verify() { timeout 120 "$mpiexec" -n 3 "$tool" restore --to "cyclic,block on 1x3" --verify "$@"; }

# Two writers at once, three times: each reports success truthfully (its
# file was complete when renamed), the file left is one of them, whole.
file="$dir/shared.h5"
for round in 1 2 3; do
  save --file "$file" --dataset a > "$dir/a.log" 2>&1 & a=$!
  save --file "$file" --dataset b > "$dir/b.log" 2>&1 & b=$!
  wait $a; sa=$?; wait $b; sb=$?
  [ $sa -eq 0 ] && [ $sb -eq 0 ] || fail "round $round: a concurrent save failed: $(cat "$dir"/?.log)"
  if verify --file "$file" --dataset a > /dev/null 2>&1; then winner=a
  elif verify --file "$file" --dataset b > /dev/null 2>&1; then winner=b
  else fail "round $round: the file left holds neither save whole"; fi
  echo "round $round: both saves succeeded, '$winner' is in place and verifies"
done
ls "$dir" | grep -q distarray-partial && fail "temporary files are left behind"

# Two writers creating one new series at once, six rounds: each says it saved
# its step or that another writer had the file; every step reported saved restores.
series="$dir/created.h5"
for round in 1 2 3 4 5 6; do
  rm -f "$series"
  save --file "$series" --array u --step 0 > "$dir/u.log" 2>&1 & a=$!
  save --file "$series" --array v --step 1 > "$dir/v.log" 2>&1 & b=$!
  wait $a; sa=$?; wait $b; sb=$?
  for w in "u 0 $sa" "v 1 $sb"; do
    set -- $w
    if [ "$3" -eq 0 ]; then
      verify --file "$series" --array "$1" --step "$2" | grep -q "verify ok" ||
        fail "round $round: '$1' step $2 was reported saved but does not restore: $(cat "$dir/$1.log")"
    else
      grep -q "another writer has it open" "$dir/$1.log" || fail "round $round: '$1' failed unclearly: $(cat "$dir/$1.log")"
    fi
  done
  echo "round $round: concurrent creators exit $sa and $sb; every step reported saved restores"
done

# A symbolic link to the checkpoint where the old fixed temporary name was: never written through.
ln -s "$file" "$file.distarray-partial"
save --file "$file" --dataset c > /dev/null || fail "a save next to a symbolic link failed"
[ -L "$file.distarray-partial" ] || fail "the symbolic link was replaced"
verify --file "$file" --dataset c | grep -q "verify ok" || fail "the checkpoint behind the link is damaged"
echo "a symbolic link at the old temporary name is left alone"

# A 230-byte file name works (the temporary name stays short); 300 bytes is refused up front.
long="$dir/$(printf 'x%.0s' $(seq 227)).h5"
save --file "$long" --dataset d > /dev/null || fail "a 230-byte file name cannot be saved"
verify --file "$long" --dataset d | grep -q "verify ok" || fail "the 230-byte name does not restore"
too_long="$dir/$(printf 'y%.0s' $(seq 297)).h5"
out=$(save --file "$too_long" --dataset d 2>&1) && fail "a 300-byte file name was accepted"
echo "$out" | grep -q "file name is 300 bytes long" || fail "unclear message for a long name: $out"
echo "file names: 230 bytes saved, 300 bytes refused with a message"
# A 400-byte path of short names: saved, appended to as a series (compressed
# too) and restored (OMPIO aborted with "buffer overflow detected").
deep="$dir/$(printf 'p%.0s' $(seq 100))/$(printf 'q%.0s' $(seq 100))/$(printf 'r%.0s' $(seq 100))/$(printf 's%.0s' $(seq 60))"
mkdir -p "$deep"
save --file "$deep/plain.h5" --dataset d > /dev/null || fail "a ${#deep}-byte folder path cannot be saved"
verify --file "$deep/plain.h5" --dataset d | grep -q "verify ok" || fail "the long path does not restore"
save --file "$deep/series.h5" --array u --step 0 > /dev/null || fail "a series at a long path cannot be created"
save --file "$deep/series.h5" --array u --step 1 --compress 2 > /dev/null || fail "a long-path series step 1"
verify --file "$deep/series.h5" --array u | grep -q "verify ok" || fail "the long-path series does not restore"
echo "a $((${#deep} + 10))-byte path saves, appends and restores"

# restore from a FIFO is refused, not blocked on.
mkfifo "$dir/pipe.h5"
out=$(verify --file "$dir/pipe.h5" 2>&1); status=$?
[ $status -ne 124 ] || fail "restore from a FIFO hangs"
echo "$out" | grep -q "not a regular file" || fail "unclear message for a FIFO: $out"
echo "a FIFO is refused"

# Dataset names with and without a leading '/' are one dataset.
save --file "$dir/slash.h5" --dataset /array > /dev/null || fail "save --dataset /array"
verify --file "$dir/slash.h5" --dataset /array | grep -q "verify ok" || fail "restore --dataset /array"
verify --file "$dir/slash.h5" --dataset array | grep -q "verify ok" || fail "restore --dataset array"
echo "all save and restore checks passed"
