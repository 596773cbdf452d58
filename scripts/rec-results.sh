#!/usr/bin/env bash
# REC's data for make results (scripts/results.sh adds the header): coalesced
# lines per evicted entry against the coalescing range, on the kernel-like
# streams of scripts/rec-streams.py, through `cohmodel rec --config fpga`
# (512 entries, 4 ways, 4 GPUs) with --stats. A range whose run evicts
# nothing has no mean (evictions 0: the tool prints mean 0.00; the figure leaves it out).
set -euo pipefail
m=${B:-build}/bin/cohmodel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# title: REC: coalesced lines per evicted entry against coalescing range"
echo "# caption: cohmodel rec --config fpga --range R --stats on 60,000-access streams of scripts/rec-streams.py (GPUs 1-3 read the home's memory, one write in 16); the paper's Fig. 12 averages (results/paper-rec.csv) marked; a range that evicts nothing has no point"
echo "stream,range_bytes,requests,evictions,lines_per_evicted_entry"
for k in strided tiled stencil gather; do
  python3 scripts/rec-streams.py "$k" --accesses 60000 --seed 1 >"$work/t"
  for r in 128 256 512 1024 2048 4096; do
    $m rec --config fpga --range "$r" --stats <"$work/t" 2>"$work/s" >/dev/null
    awk -v k="$k" -v r="$r" '{ for (i = 1; i < NF; i++) { if ($i == "requests") q = $(i + 1); if ($i == "evictions") e = $(i + 1) }
      print k "," r "," q "," e "," $NF }' "$work/s"
  done
done
