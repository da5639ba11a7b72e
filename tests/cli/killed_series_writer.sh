#!/usr/bin/env bash
# A series writer killed with SIGKILL at random moments, many times: every
# earlier complete step stays restorable and correct, readers leave a killed
# step's file and journal as they are, `distarray recover` rolls it back, and
# the next writer appends after it.
# The writer runs at WRITER_RANKS ranks (default 2), through the MPI-IO
# component OMPI_MCA_io names (OMPIO by default, or romio321).
# usage: killed_series_writer.sh MPIEXEC DISTARRAY WORKDIR [ROUNDS [WRITER_RANKS]]
set -u
mpiexec=$1 tool=$2 dir=$3 rounds=${4:-20} ranks=${5:-2}
file="$dir/killed_series_np${ranks}${OMPI_MCA_io:+_$OMPI_MCA_io}.h5"
rm -f "$file" "$file".distarray-journal*
RANDOM=${KILL_SEED:-20261124}
write() {  # first step, steps, extra options
  "$mpiexec" -n "$ranks" "$tool" save --shape 160x150 --type f64 --from "cyclic(7),block on ${ranks}x1" --file "$file" \
    --array u --step "$1" --steps "$2" "${@:3}"
}
write 0 1 > /dev/null || exit 1
next=1 killed_inside=0
for round in $(seq "$rounds"); do
  delay=$((RANDOM % 1500 + 300))  # ms: mpiexec starts in about 300 ms here
  extra=()
  [ $((round % 3)) -eq 0 ] && extra=(--compress 3)
  setsid bash -c "$(declare -f write); mpiexec=$mpiexec tool=$tool file=$file ranks=$ranks; write $next 100000 ${extra[*]}" \
    > /dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -9 -- -"$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # The ranks' exits take a moment after the kill, and many on a loaded
  # machine (ctest -j beside 7-rank tests): a writer still alive would race
  # the checks below.
  for _ in $(seq 600); do
    pgrep -f -- "--file $file --array u --step $next " > /dev/null || break
    sleep 0.05
  done
  if [ -e "$file.distarray-journal" ]; then
    killed_inside=$((killed_inside + 1))
    # Readers never write: a restore reads the file as it is (or says how to
    # roll the step back) and leaves the file and the journal untouched.
    before=$(cat "$file" "$file.distarray-journal" | md5sum)
    out=$("$mpiexec" -n 2 "$tool" restore --file "$file" --array u --to "cyclic,* on 2x1" --verify 2>&1) ||
      grep -q "distarray recover" <<< "$out" || { echo "round $round: a reader failed unhelpfully: $out"; exit 1; }
    [ "$(cat "$file" "$file.distarray-journal" | md5sum)" = "$before" ] ||
      { echo "round $round: a reader wrote to the series or its journal"; exit 1; }
    "$mpiexec" -n 2 "$tool" recover "$file" > /dev/null || { echo "round $round: recover failed"; exit 1; }
    [ -e "$file.distarray-journal" ] && { echo "round $round: recover left the journal"; exit 1; }
  fi
  out=$("$mpiexec" -n 3 "$tool" restore --file "$file" --array u --to "block,cyclic(4) on 1x3" --verify 2>&1) || {
    echo "round $round: restoring the latest step failed after a kill at $delay ms:"
    echo "$out"
    exit 1
  }
  step=$(sed -n "s/.*restored 'u' step \([0-9]*\).*/\1/p" <<< "$out")
  [ "$step" -ge $((next - 1)) ] || { echo "round $round: step $step restored, but step $((next - 1)) was complete"; exit 1; }
  # Every earlier step too: one at random, into another rank count.
  earlier=$((RANDOM % (step + 1)))
  "$mpiexec" -n 2 "$tool" restore --file "$file" --array u --step "$earlier" --to "cyclic(3),* on 2x1" --verify \
    > /dev/null 2>&1 || { echo "round $round: earlier step $earlier is lost"; exit 1; }
  listing=$("$mpiexec" -n 1 "$tool" ls "$file" 2>&1)
  grep -q "^$file: $((step + 1)) steps, $((step + 1)) complete" <<< "$listing" || {
    echo "round $round: the file does not hold steps 0..$step all complete:"
    echo "$listing" | head -3
    exit 1
  }
  echo "round $round: killed at $delay ms; steps 0..$step complete, step $step and step $earlier verified"
  next=$((step + 1))
done
echo "$rounds kills ($killed_inside inside a step, rolled back): every complete step restorable"
