#!/usr/bin/env bash
# REC's part of make sanitize (scripts/sanitize.sh): the trace tool on a
# random trace under several configurations and on a bad trace, the
# generator on an HMG configuration and a bad option. Prints how many passed.
#   scripts/rec-sanitize.sh DIR    (DIR: the sanitizer builds)
set -euo pipefail
d=$1
pass=0
# the trace tool on a random trace
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
printf 'RR 0x40 1\nRR zz 1\n' | $d/cohmodel rec >/dev/null 2>&1 && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
$d/cohgen rec --mode hmg --group 8 --gpus 16 -o "$d/gen" >/dev/null; pass=$((pass+1))
$d/cohgen rec --gpus 99 -o "$d/gen" 2>/dev/null && exit 1 || [ $? -eq 2 ]; pass=$((pass+1))
echo "$pass"
