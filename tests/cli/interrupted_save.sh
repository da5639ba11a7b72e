#!/usr/bin/env bash
# A save killed in the middle leaves the earlier checkpoint loadable and correct.
# usage: interrupted_save.sh MPIEXEC DISTARRAY WORKDIR
set -u
mpiexec=$1 tool=$2 dir=$3
file="$dir/interrupted.h5"
rm -f "$file" "$file".*.distarray-partial
partials() { ls "$file".*.distarray-partial 2>/dev/null; }
"$mpiexec" -n 2 "$tool" save --shape 64x48 --from "block,* on 2x1" --file "$file" --dataset old || exit 1
# The new save writes everything, then waits before moving the file into place: kill it there.
setsid "$mpiexec" -n 2 "$tool" save --shape 64x48 --from "block,* on 2x1" --file "$file" --dataset new \
  --pause-before-commit 60 &
pid=$!
for _ in $(seq 100); do [ -n "$(partials)" ] && break; sleep 0.1; done
[ -n "$(partials)" ] || { echo "the second save never started writing"; kill -9 -- -$pid; exit 1; }
sleep 1
kill -9 -- -$pid
wait $pid 2>/dev/null
echo "second save killed before its commit"
"$mpiexec" -n 3 "$tool" restore --file "$file" --dataset old --to "cyclic,block on 1x3" --verify || exit 1
if "$mpiexec" -n 1 "$tool" restore --file "$file" --dataset new --to "block,block on 1x1" >/dev/null 2>&1; then
  echo "the killed save's dataset is visible: the old file was replaced"
  exit 1
fi
echo "the earlier checkpoint is intact"
