#!/usr/bin/env bash
# The kit's lockstep speed data for make results (scripts/results.sh adds
# the header): instructions per simulated cycle of every unit's lockstep
# bench on its `default` configuration (generated stream, seed 1), counted
# by valgrind's callgrind (a count, not a time: the same on a loaded
# machine), as the difference of a SPEED_N1-cycle and a SPEED_N2-cycle run
# so start-up and reset do not count; split into the Verilated RTL (the
# functions of the model's V<module> classes, self cost) and the rest (the
# timing shell, the stimulus, the comparison). Needs the benches (make
# verilate) and valgrind (scripts/install-deps.sh --bench).
set -euo pipefail
B=${B:-build}
n1=${SPEED_N1:-2000} n2=${SPEED_N2:-12000}
command -v valgrind >/dev/null || { echo "speed-results: valgrind missing (scripts/install-deps.sh --bench)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# title: Lockstep speed: instructions per simulated cycle per unit (default configuration)"
echo "# caption: valgrind --tool=callgrind ./tb_<family> --unit U --config default --seed 1 --cycles N, cycles $n1 to $n2; rtl = the Verilated model's own functions, rest = timing shell, stimulus and comparison; measured on the 2-core machine under load, one core ran about 8 G instructions a second (REC 3,596 a cycle: 2.2 M cycles a second; CoDec coalescer 8,580: 0.85-0.96 M), so 8,000 a cycle is about 1 M cycles a second"
echo "unit,instructions_per_cycle,rtl,rest"
"$B/bin/cohgen" --list=configs | awk '$4 == "default"' >"$work/list"
[ -s "$work/list" ] || { echo "speed-results: no default configuration listed by $B/bin/cohgen" >&2; exit 1; }
while read -r unit family m p; do
  [ -x "./tb_$family" ] || { echo "speed-results: ./tb_$family missing (make verilate)" >&2; exit 1; }
  for n in "$n1" "$n2"; do
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "./tb_$family" --unit "$unit" \
      --config "$p" --seed 1 --cycles "$n" >/dev/null 2>&1 ||
      { echo "speed-results: ./tb_$family --unit $unit --config $p --cycles $n failed" >&2; exit 1; }
    # total, and the self cost of the Verilated model's functions
    callgrind_annotate --threshold=100 "$work/cg.$n" 2>/dev/null | awk -v m="V$m" '
      /PROGRAM TOTALS/ { gsub(/,/, "", $1); t = $1 }
      index($0, ":" m "_") || index($0, ":" m "::") { x = $1; gsub(/,/, "", x); r += x }
      END { if (t == "") exit 1; print t, r + 0 }' >"$work/ir.$n" ||
      { echo "speed-results: no callgrind totals for $unit" >&2; exit 1; }
  done
  read -r t1 r1 <"$work/ir.$n1"
  read -r t2 r2 <"$work/ir.$n2"
  awk -v u="$unit" -v t1="$t1" -v t2="$t2" -v r1="$r1" -v r2="$r2" -v n=$((n2 - n1)) 'BEGIN {
    t = (t2 - t1) / n; r = (r2 - r1) / n
    if (t <= 0 || r <= 0) { print "speed-results: " u ": no instructions counted" > "/dev/stderr"; exit 1 }
    printf "%s,%.0f,%.0f,%.0f\n", u, t, r, t - r }'
done <"$work/list"
