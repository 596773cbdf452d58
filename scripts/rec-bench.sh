#!/usr/bin/env bash
# REC's part of make bench (scripts/bench.sh, which exports rate() and
# reads the rows into its measurement table): lockstep rate of every committed
# configuration, requests accepted per cycle, the functional core's speed.
set -euo pipefail
B=${B:-build}
for p in default fpga baseline hmg; do
  r=$(./tb_rec --config "$p" --seed 1 --cycles 3000000 | rate)
  echo "| REC lockstep, generated mixed stream, 3 M cycles | $p | $r M cycles/s |"
done
r=$(./tb_rec --config default --stream hit --seed 1 --cycles 2000000)
echo "| REC requests accepted per cycle, hit-heavy stream | default | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) per cycle$/\1/p') |"
r=$(./tb_rec --config default --seed 1 --cycles 2000000)
echo "| REC requests accepted per cycle, mixed stream with back-pressure | default | $(echo "$r" | sed -n 's/.*(\([0-9.]*\) per cycle)$/\1/p') |"
for p in default baseline hmg; do
  r=$("$B/bin/bench_model" rec "$p" 20000000)
  echo "| REC model alone (functional core), 20 M accesses | $p | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) M accesses.*/\1/p') M accesses/s |"
done
