#!/usr/bin/env bash
# Spandex's data for make results (scripts/results.sh adds the header):
# messages and bytes per request type per configuration, the table of
# scripts/spandex-presets.sh --no-cycles (each program of `cohmodel
# spandex-prog` under the paper's presets and the line baselines, every log
# judged PASS by `cohmodel spandex-check --drf`) as CSV.
set -euo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash scripts/spandex-presets.sh --no-cycles >"$work/t"
echo "# title: Spandex: messages and bytes per request type per configuration"
echo "# caption: scripts/spandex-presets.sh --no-cycles (400 operation lines, seed 1; cohmodel spandex-system per preset, every log judged PASS by cohmodel spandex-check --drf); Probe = Inv + RvkO and their responses"
types="ReqV ReqS ReqWT ReqO ReqWT+data ReqO+data ReqWB Probe total"
printf 'program,preset'
for t in $types; do printf ',%s_msgs,%s_bytes' "${t/+/_}" "${t/+/_}"; done
echo ",nacks"
awk -F' *\\| *' 'NR > 2 {
  row = $2 "," $3
  for (i = 4; i <= 12; i++) {
    if (split($i, mb, " / ") != 2 || mb[1] !~ /^[0-9]+$/ || mb[2] !~ /^[0-9]+$/) {
      print "spandex-results: " $2 " " $3 ": cell \"" $i "\" is not messages / bytes" > "/dev/stderr"; exit 1 }
    row = row "," mb[1] "," mb[2]
  }
  print row "," $13 }' "$work/t"
