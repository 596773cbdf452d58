#!/usr/bin/env bash
# Runs the parser fuzzing harnesses (mk/fuzz.mk; the list and each one's
# input bound in tb/fuzz/harnesses.txt, seeds in tb/fuzz/corpus/<name>/).
#   scripts/fuzz.sh BIN OUT [HARNESS...]           libFuzzer, FUZZ_SECONDS (60) each
#   scripts/fuzz.sh --replay BIN OUT [HARNESS...]  every committed corpus file once
# Prints a line a harness (executions, time, failures) and exits 1 if any
# harness failed: a crash, a hang (an input over FUZZ_TIMEOUT, 10 s), a
# leak, a sanitizer report or a broken promise of the harness. libFuzzer
# saves the failing input as OUT/<name>/crash-*, timeout-*, leak-*, oom-*;
# new corpus units go to OUT/<name>/corpus, never into tb/fuzz/corpus.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
list=tb/fuzz/harnesses.txt
replay=0
[ "${1:-}" = --replay ] && { replay=1; shift; }
bin=$1 out=$2; shift 2
secs=${FUZZ_SECONDS:-60} tmo=${FUZZ_TIMEOUT:-10}
all=$(awk '!/^#/ && NF {print $1}' "$list")
bad=0
for d in tb/fuzz/corpus/*/; do
  n=$(basename "$d")
  grep -qx "$n" <<<"$all" || { echo "fuzz: tb/fuzz/corpus/$n has no line in $list"; bad=1; }
done
for n in $all; do
  [ -d "tb/fuzz/corpus/$n" ] || { echo "fuzz: $n of $list has no seed corpus tb/fuzz/corpus/$n/"; bad=1; }
done
[ $bad -eq 0 ] || exit 2
sel=("$@")
[ ${#sel[@]} -gt 0 ] || read -r -a sel <<<"$(echo $all)"
mkdir -p "$out"
fail=0 total_cpu=0 total_n=0 k=0
progress_start ${#sel[@]} harnesses
for h in "${sel[@]}"; do
  progress_step $((k++))
  grep -qx "$h" <<<"$all" || { echo "fuzz: no harness '$h' in $list"; exit 2; }
  max=$(awk -v h="$h" '$1 == h {print $2}' "$list")
  mkdir -p "$out/$h"
  log=$out/$h/$([ $replay -eq 1 ] && echo replay.log || echo fuzz.log)
  if [ $replay -eq 1 ]; then
    "$bin" --harness="$h" "tb/fuzz/corpus/$h" >"$log" 2>&1; rc=$?
    res=$(tail -1 "$log")
    if [ $rc -eq 0 ]; then
      printf 'fuzz-replay %-20s %s\n' "$h" "$res"
      read -r n _ cpu _ <<<"$res"
      total_n=$((total_n + n)); total_cpu=$(awk -v a="$total_cpu" -v b="$cpu" 'BEGIN {print a + b}')
      continue
    fi
  else
    mkdir -p "$out/$h/corpus"
    rm -f "$out/$h"/crash-* "$out/$h"/timeout-* "$out/$h"/leak-* "$out/$h"/oom-* "$out/$h"/slow-unit-*
    t0=$(date +%s.%N)
    "$bin" --harness="$h" -max_len="$max" -max_total_time="$secs" -timeout="$tmo" -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$out/$h/" "$out/$h/corpus" "tb/fuzz/corpus/$h" >"$log" 2>&1; rc=$?
    t1=$(date +%s.%N)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    units=$(ls "$out/$h/corpus" | wc -l)
    if [ $rc -eq 0 ]; then
      printf 'fuzz %-20s %9s executions in %5.1f s (%s/s), %s new corpus inputs, 0 crashes, 0 hangs, 0 sanitizer reports\n' \
        "$h" "${execs:-?}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
        "$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)" "$units"
      continue
    fi
  fi
  fail=1
  why=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|^fuzz [^ ]*:|ALARM|out-of-memory' "$log")
  art=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
  inp=$(sed -n 's/^fuzz_replay: the input was //p' "$log" | tail -1)
  echo "FAILED: $([ $replay -eq 1 ] && echo fuzz-replay || echo fuzz) $h (exit $rc): ${why:-see $log}"
  [ -n "$art" ] && echo "  input saved as $art (replay: $bin --harness=$h $art)"
  [ -n "$inp" ] && echo "  input: $inp"
  echo "  log: $log"
done
progress_step $k; progress_end
if [ $replay -eq 1 ] && [ $fail -eq 0 ]; then
  echo "fuzz-replay: $total_n inputs of ${#sel[@]} harnesses, $total_cpu s CPU"
fi
exit $fail
