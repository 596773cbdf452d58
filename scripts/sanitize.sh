#!/usr/bin/env bash
# Runs the sanitizer builds (make sanitize): every unit's stimulus sources and
# timing shell on every named configuration and stream, the trace tools on
# traces and on bad input, the generator on every unit and configuration.
#   scripts/sanitize.sh DIR
set -euo pipefail
d=$1
pass=0
B=${B:-build}
"$d/shell_run" 60000 >"$d/shell_run.log"; pass=$((pass+1))
# REC trace tool on a random trace
trace="$d/trace.txt"
awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++) { r = rand(); a = int(rand() * 4096) * 64 + int(rand() * 64);
  g = 1 + int(rand() * 3); if (r < .6) printf "RR 0x%x %d\n", a, g; else if (r < .8) printf "RW %x %d\n", a, g;
  else printf "LW 0x%x\n", a } }' >"$trace"
for cfg in "--config default" "--config fpga" "--config baseline" "--config hmg" \
           "--gpus 16 --range 4096 --entries 64 --ways 2" "--gpus 5 --range 128 --store packed --entries 16 --ways 4"; do
  $d/cohmodel rec $cfg --dump --stats <"$trace" >"$d/out.txt" 2>"$d/err.txt"
  grep -q '^INV' "$d/out.txt"
  pass=$((pass+1))
done
$d/bench_model default 300000 >/dev/null; pass=$((pass+1))
$d/bench_model hmg 300000 >/dev/null; pass=$((pass+1))
printf 'RR 0x40 1\nRR zz 1\n' | $d/cohmodel rec >/dev/null 2>&1 && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
# example traces of every unit (tb/<family>/traces/<unit>*.trace), through cohmodel
for t in tb/*/traces/*.trace; do
  [ -f "$t" ] || continue
  u=$(basename "$t" .trace); u=${u%%.*}
  $d/cohmodel "$u" <"$t" >"$d/out.txt"; pass=$((pass+1))
done
# the generator: every configuration of every unit, reports, bad options
while read -r unit family prefix; do
  "$B/bin/cohgen" "$unit" --help | sed -n 's/.*--config NAME.*configuration: //p' | tr ' ' '\n' | grep . |
  while read -r p; do
    $d/cohgen "$unit" --config "$p" -o "$d/gen" >/dev/null
    $d/cohgen "$unit" --config "$p" --report --json >/dev/null
  done
  pass=$((pass+1))
  # the FPGA self-test top and its prediction (docs/fpga.md), a short run
  # (exit 2: the unit has no fpga preset)
  rc=0; $d/cohgen "$unit" --config fpga --selftest --selftest-cycles 3000 -o "$d/gen" \
    >/dev/null 2>"$d/selftest.err" || rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 2 ] || { cat "$d/selftest.err"; exit 1; }; pass=$((pass+1))
  $d/cohgen "$unit" --no-such-option 1 -o "$d/gen" 2>/dev/null && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
done < <($d/cohgen --list=units)
$d/cohgen rec --mode hmg --group 8 --gpus 16 -o "$d/gen" >/dev/null; pass=$((pass+1))
$d/cohgen rec --gpus 99 -o "$d/gen" 2>/dev/null && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
echo "sanitize: $pass passed, 0 failed (ASan + UBSan, models, stimulus, tools)"
