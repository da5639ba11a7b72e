#!/usr/bin/env bash
# Every rank exits with the same status when only rank 0 fails (it alone
# writes --json and --svg files) or when only some ranks see bad input.
# usage: same_exit_status.sh MPIEXEC DISTARRAY
set -u
mpiexec=$1 tool=$2
fail() { echo "FAILED: $*"; exit 1; }
each_rank() {  # prints "exit S" per rank
  timeout 120 "$mpiexec" -n 2 sh -c '"$0" "$@"; echo "exit $?"' "$tool" "$@" 2>&1
}
expect_all_fail() {
  out=$(each_rank "$@")
  [ "$(echo "$out" | grep -c '^exit 1$')" -eq 2 ] || fail "$*: not every rank exits 1: $out"
  echo "$*: every rank exits 1"
}
expect_all_fail redist --shape 16x16 --json /nonexistent-folder/r.json
expect_all_fail show --shape 9 --layout "cyclic on 2" --svg /nonexistent-folder/s.svg
expect_all_fail restore --file /nonexistent-folder/c.h5 --to "block on 2"
echo "exit status agreed"
