#!/usr/bin/env bash
# HALCONE's data for make results (scripts/results.sh adds the header): the
# checker's violations (stale, reorder and future loads) of `cohmodel
# halcone-system` under the paper's rules and the safe ones, on seeded
# random programs of `cohmodel halcone-gen` (400 operations on 4 lines, 2
# GPUs x 2 CUs) and on Xtreme1-3.
set -euo pipefail
m=${B:-build}/bin/cohmodel
echo "# title: HALCONE: checker violations under the paper's and the safe rules"
echo "# caption: cohmodel halcone-gen (random: --ops 400 --lines 4 --seed S; xtreme1-3) | cohmodel halcone-system --rules paper|safe; violations are the checker's stale, reorder and future loads"
echo "program,rules,loads,stale,reorder,future,violations"
progs="xtreme1 xtreme2 xtreme3 $(seq -f 'seed%g' 1 20)"
for p in $progs; do
  case $p in seed*) g=(random --ops 400 --lines 4 --seed "${p#seed}") ;; *) g=("$p") ;; esac
  for rules in paper safe; do
    $m halcone-gen "${g[@]}" | $m halcone-system --rules "$rules" |
      awk -v p="$p" -v r="$rules" '$2 == "checked" && $3 == "loads" {
        s = $6 + $8 + $10; print p "," r "," $4 "," $6 "," $8 "," $10 "," s; n++ }
        END { if (n != 1) { print "halcone-results: no summary for " p " " r > "/dev/stderr"; exit 1 } }'
  done
done
