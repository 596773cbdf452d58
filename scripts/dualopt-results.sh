#!/usr/bin/env bash
# DualOpt's data for make results (scripts/results.sh adds the header): the
# mode the decision engine picks (`cohmodel dualopt-de --window 200`, the
# paper's thresholds: remote 0.02, block 0.2, hit 0.4) on a grid of remote
# ratio x block utilisation, at two L1 hit rates of remote reads, each point
# a trace of scripts/dualopt-de-trace.py (all written by one process).
set -euo pipefail
m=${B:-build}/bin/cohmodel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for h in 0.2 0.6; do
  for r in 0.005 0.01 0.015 0.02 0.025 0.03 0.04 0.06 0.08 0.12 0.16 0.25; do
    for k in $(seq 1 16); do echo "$r $(awk -v k="$k" 'BEGIN { printf "%.4f", k / 16 }') $h"; done
  done
done >"$work/points"
python3 scripts/dualopt-de-trace.py --batch "$work" --accesses 12000 <"$work/points"
echo "# title: DualOpt: the decision engine's mode over remote ratio and block utilisation"
echo "# caption: cohmodel dualopt-de --window 200 (thresholds remote 0.02, block 0.2, hit 0.4) on 12000-access traces of scripts/dualopt-de-trace.py; mode 0 NONE, 1 COALESCE, 2 CACHE; the paper's thresholds (results/paper-dualopt.csv) drawn as lines"
echo "hit_rate,remote_ratio,block_util,mode,decided_at"
i=0
while read -r r u h; do
  i=$((i + 1))
  $m dualopt-de --window 200 <"$work/$i.tr" >"$work/o"
  awk -v h="$h" -v r="$r" -v u="$u" '$1 == "DECIDE" && !d { d = 1
      mode = ($3 == "NONE") ? 0 : ($3 == "COALESCE") ? 1 : 2; print h "," r "," u "," mode "," $2 }
    END { if (!d) print h "," r "," u ",-1,0" }' "$work/o"
done <"$work/points"
