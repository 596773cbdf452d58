#!/usr/bin/env bash
# make bench: lockstep simulation speed, model speed and request throughput.
# Writes build/bench.md. Figures depend on the machine; nothing here fails
# on a slow one.
set -euo pipefail
B=${B:-build}
out="$B/bench.md"
{
  echo "| measurement | configuration | result |"
  echo "|---|---|---|"
  for p in default fpga baseline hmg; do
    r=$(./tb_rec --config "$p" --seed 1 --cycles 3000000)
    cps=$(echo "$r" | sed -n 's/^simulated cycles per second \([0-9]*\).*/\1/p')
    echo "| lockstep model+RTL, mixed stream, 3 M cycles | $p | $(awk -v c="$cps" 'BEGIN{printf "%.2f M cycles/s", c/1e6}') |"
  done
  r=$(./tb_rec --config default --stream hit --seed 1 --cycles 2000000)
  echo "| requests accepted per cycle, hit-heavy stream | default | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) per cycle$/\1/p') |"
  r=$(./tb_rec --config default --seed 1 --cycles 2000000)
  echo "| requests accepted per cycle, mixed stream with back-pressure | default | $(echo "$r" | sed -n 's/.*(\([0-9.]*\) per cycle)$/\1/p') |"
  for p in default baseline hmg; do
    r=$("$B/bin/bench_model" "$p" 20000000)
    echo "| model alone (functional core), 20 M accesses | $p | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) M accesses.*/\1/p') M accesses/s |"
  done
} | tee "$out"
echo "bench: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); written to $out"
