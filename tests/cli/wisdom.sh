#!/usr/bin/env bash
# distarray redist --wisdom: the first run measures (cost model calibrated,
# engine settled after a few executions) and writes the file; a second run
# plans from it, measuring nothing; DISTARRAY_WISDOM does the same; a file
# that is not wisdom (a FIFO included) is left as it was; links planted at
# temporary names are never written through.
# usage: wisdom.sh MPIEXEC DISTARRAY WORKDIR
set -u
mpiexec=$1 tool=$2 dir=$3
fail() { echo "FAILED: $*"; exit 1; }
file=$dir/cli_wisdom.txt
rm -f "$file"
run() { timeout 120 "$mpiexec" -n 2 "$tool" redist --shape 300x300 --to-order column-major --repeat 8 "$@" 2>&1; }
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
# A FIFO as the wisdom file: refused on every rank before it is opened to block (it hung).
rm -f "$dir/cli_fifo_wisdom"
mkfifo "$dir/cli_fifo_wisdom"
out=$(run --wisdom "$dir/cli_fifo_wisdom")
[ $? -ne 124 ] || fail "a FIFO as the wisdom file hangs"
echo "$out" | grep -q "is not a wisdom file" || fail "no warning for a FIFO: $out"
[ -p "$dir/cli_fifo_wisdom" ] || fail "the FIFO was replaced"
# Links planted where a writer's temporary file could go (the old name was
# <wisdom>.tmp<pid>) never lead it to overwrite what they point to.
victim=$dir/cli_wisdom_victim.h5
printf 'a checkpoint\n' > "$victim"
rm -f "$file" "$file".tmp*
first_pid=$(sh -c 'echo $$')
for pid in $(seq "$first_pid" $((first_pid + 3000))); do ln -s "$victim" "$file.tmp$pid"; done
out=$(run --wisdom "$file") || fail "run beside planted links: $out"
[ "$(cat "$victim")" = "a checkpoint" ] || fail "a planted link made the wisdom writer overwrite another file"
grep -q "^cost	2	" "$file" || fail "no wisdom written beside planted links: $out"
rm -f "$file".tmp*
echo "wisdom checks passed"
