#!/usr/bin/env bash
# Runs the sanitizer builds (make sanitize): every unit's stimulus sources and
# timing shell on every named configuration and stream, the trace tools on
# traces and on bad input, the generator on every unit and configuration.
#   scripts/sanitize.sh DIR
set -euo pipefail
d=$1
pass=0
B=${B:-build}
"$d/shell_run" 20000 >"$d/shell_run.log"; pass=$((pass+1))
# each family's own checks (scripts/<family>-sanitize.sh DIR: prints how
# many passed), then every unit's model benchmark on every preset
for fam in $("$B/bin/cohgen" --list=units | awk '{print $2}' | sort -u); do
  [ -x "scripts/$fam-sanitize.sh" ] || continue
  n=$("scripts/$fam-sanitize.sh" "$d"); pass=$((pass+n))
done
for unit in $($d/bench_model --list); do
  while read -r p; do
    $d/bench_model "$unit" "$p" 300000 >/dev/null; pass=$((pass+1))
  done < <("$B/bin/cohgen" "$unit" --help | sed -n 's/.*--config NAME.*configuration: //p' | tr ' ' '\n' | grep .)
done
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
echo "sanitize: $pass passed, 0 failed (ASan + UBSan, models, stimulus, tools)"
