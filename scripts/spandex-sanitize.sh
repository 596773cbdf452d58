#!/usr/bin/env bash
# Spandex's part of make sanitize (scripts/sanitize.sh): spandex-gen traces
# of every committed configuration and ReqS policy through the trace tool
# with the LLC1-LLC8 checker, the unbounded model (--ways 0), bad input,
# and spandex-prog programs run by spandex-system and judged by
# spandex-check --drf. Prints how many passed.
#   scripts/spandex-sanitize.sh DIR    (DIR: the sanitizer builds)
set -euo pipefail
d=$1
pass=0
for cfg in "--config default" "--config paper" "--config fpga" "--config line" \
           "--reqs 1 --mesi 0" "--reqs 2 --owner-store array" "--reqs 3 --word 8" "--ways 0 --sets 1"; do
  $d/cohmodel spandex-gen $cfg --seed 5 --events 3000 >"$d/trace.txt"
  $d/cohmodel spandex-llc $cfg --check --dump --stats <"$d/trace.txt" >"$d/out.txt"
  grep -q '^# count ReqV' "$d/out.txt"
  pass=$((pass+1))
done
printf 'ReqV 1 0x40 0x1\nAck 1 0x40\n' | $d/cohmodel spandex-llc >/dev/null 2>&1 && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
$d/cohmodel spandex-llc --word 5 </dev/null >/dev/null 2>&1 && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
for cfg in "--dev 0:gpu --dev 1:denovo" "--dev 0:denovo --dev 1:gpu --dev 2:denovo --dev 3:gpu --line 16" \
           "--dev 0:gpu --dev 1:denovo --dev 2:gpu --dev 3:denovo --dev 4:gpu --dev 5:denovo --dev 6:gpu --dev 7:denovo --word 8"; do
  $d/cohmodel spandex-prog $cfg --seed 3 --ops 600 >"$d/prog.txt"
  $d/cohmodel spandex-system $cfg --sched random --seed 3 <"$d/prog.txt" >"$d/log.txt"
  $d/cohmodel spandex-check $cfg --drf --stats --program "$d/prog.txt" <"$d/log.txt" | grep -q '^PASS'
  pass=$((pass+1))
done
echo "$pass"
