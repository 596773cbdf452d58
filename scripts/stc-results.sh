#!/usr/bin/env bash
# STC's data for make results (scripts/results.sh adds the header): epoch
# transitions, sleeps and SEB changes per variant on the bench programs of
# tb/stc/bench/ (scripts/stc-bench.py: the system model at the paper's
# configuration, every log judged by stc-check), its Markdown table as CSV.
set -euo pipefail
m=${B:-build}/bin/cohmodel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/stc-bench.py --cohmodel "$m" --out "$work/out" >"$work/t"
echo "# title: STC: epoch transitions and sleeps per variant per program"
echo "# caption: scripts/stc-bench.py (cohmodel stc-system, 8 CUs, N 4, SEB 12, every log judged PASS by cohmodel stc-check) on tb/stc/bench/*.prog"
echo "program,variant,transitions,sleeps,seb_changes,final_seb,cycles,max_bsq"
awk -F' *\\| *' 'NF >= 11 && $3 ~ /^(NV|ES|AB|MB)$/ && $4 ~ /^[0-9]+$/ {
  if ($11 !~ /^PASS/) { print "stc-results: " $2 " " $3 ": " $11 > "/dev/stderr"; exit 1 }
  print $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 "," $10 }' "$work/t"
