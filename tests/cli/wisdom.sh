#!/usr/bin/env bash
# distarray redist --wisdom: the first run measures (cost model calibrated,
# engine settled after a few executions) and writes the file; a second run
# plans from it, measuring nothing; DISTARRAY_WISDOM does the same; a file
# that is not wisdom is left as it was.
# usage: wisdom.sh MPIEXEC DISTARRAY WORKDIR
set -u
mpiexec=$1 tool=$2 dir=$3
fail() { echo "FAILED: $*"; exit 1; }
file=$dir/cli_wisdom.txt
rm -f "$file"
run() { timeout 120 "$mpiexec" -n 2 "$tool" redist --shape 300x300 --to-order column-major --repeat 6 "$@" 2>&1; }
first=$(run --wisdom "$file") || fail "first run: $first"
echo "$first" | grep -q "cost model calibrated" || fail "first run did not calibrate: $first"
grep -q "^cost	2	" "$file" || fail "no cost model in $file: $(cat "$file")"
second=$(run --wisdom "$file") || fail "second run: $second"
echo "$second" | grep -q "cost model wisdom" || fail "second run did not read the wisdom: $second"
third=$(DISTARRAY_WISDOM=$file run) || fail "third run: $third"
echo "$third" | grep -q "cost model wisdom" || fail "DISTARRAY_WISDOM was not read: $third"
engine=$(echo "$second" | sed -n 's/.*exchange \([^,]*\),.*/\1/p')
[ -n "$engine" ] && [ "$engine" != "auto(measuring)" ] || fail "no engine in: $second"
echo "plans from wisdom: cost model read, exchange $engine"
printf 'my notes\n' > "$dir/cli_not_wisdom.txt"
out=$(run --wisdom "$dir/cli_not_wisdom.txt") || fail "run with a foreign file: $out"
echo "$out" | grep -q "is not a wisdom file" || fail "no warning for a foreign file: $out"
[ "$(cat "$dir/cli_not_wisdom.txt")" = "my notes" ] || fail "a file that is not wisdom was written"
echo "wisdom checks passed"
