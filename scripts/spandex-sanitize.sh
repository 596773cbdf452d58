#!/usr/bin/env bash
# Spandex's part of make sanitize (scripts/sanitize.sh): spandex-gen traces
# of every committed configuration and ReqS policy through the trace tool
# with the LLC1-LLC8 checker, the unbounded model (--ways 0), and bad
# input. Prints how many passed.
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
echo "$pass"
