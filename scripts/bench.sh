#!/usr/bin/env bash
# make bench: for every committed configuration of every unit, a stimulus is
# recorded once, then replayed through the Verilated RTL alone and through the
# lockstep bench (model + RTL), so the model's share of lockstep time is a
# measured ratio; then REC's request throughput and the REC functional core's
# speed; then the STC epoch-transition table (scripts/stc-bench.py: NV, ES,
# AB, MB on the programs of tb/stc/bench/, every log judged by stc-check;
# exit 1 if one fails). Writes build/bench.md. Figures depend on the machine; nothing here
# fails on a slow one.
set -euo pipefail
B=${B:-build}
out="$B/bench.md"
CYC=${BENCH_CYCLES:-2000000}
mkdir -p "$B/bench"
# "wall/cpu": M simulated cycles per second of wall-clock time and per second
# of the process's CPU time (one core's rate, even on a shared machine)
rate() {
  awk '/simulated cycles per second/ {w = $5} /simulated cycles per CPU second/ {c = $6}
       END {printf "%.2f/%.2f", w / 1e6, c / 1e6}'
}
{
  echo "M simulated cycles per second, wall clock / per CPU second (the second figure is one core's rate when the machine is shared)."
  echo
  echo "| unit | configuration | RTL alone (M cycles/s) | lockstep model+RTL (M cycles/s) | lockstep / RTL time (CPU) |"
  echo "|---|---|---|---|---|"
  while read -r unit family m p; do
    s="$B/bench/$m.stim"
    "./tb_$family" --unit "$unit" --config "$p" --seed 1 --cycles "$CYC" --stim-out "$s" >/dev/null
    rtl=$("./tb_$family" --unit "$unit" --config "$p" --replay "$s" --rtl-only | rate)
    ls=$("./tb_$family" --unit "$unit" --config "$p" --replay "$s" | rate)
    echo "| $unit | $p | $rtl | $ls | $(awk -v a="${rtl#*/}" -v b="${ls#*/}" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "-" }') |"
    rm -f "$s"
  done < <("$B/bin/cohgen" --list=configs)
  echo
  echo "| measurement | configuration | result |"
  echo "|---|---|---|"
  for p in default fpga baseline hmg; do
    r=$(./tb_rec --config "$p" --seed 1 --cycles 3000000 | rate)
    echo "| REC lockstep, generated mixed stream, 3 M cycles | $p | $r M cycles/s |"
  done
  r=$(./tb_rec --config default --stream hit --seed 1 --cycles 2000000)
  echo "| REC requests accepted per cycle, hit-heavy stream | default | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) per cycle$/\1/p') |"
  r=$(./tb_rec --config default --seed 1 --cycles 2000000)
  echo "| REC requests accepted per cycle, mixed stream with back-pressure | default | $(echo "$r" | sed -n 's/.*(\([0-9.]*\) per cycle)$/\1/p') |"
  for p in default baseline hmg; do
    r=$("$B/bin/bench_model" "$p" 20000000)
    echo "| REC model alone (functional core), 20 M accesses | $p | $(echo "$r" | sed -n 's/.*= \([0-9.]*\) M accesses.*/\1/p') M accesses/s |"
  done
  if [ -x ./tb_dualopt ]; then
    r=$(./tb_dualopt --e2e --gpus 4 --kernel mixed --loads 64 --mode coalesce --seed 1 |
        sed -n 's/.*; \([0-9]*\) cycles per second$/\1/p')
    echo "| DualOpt end to end, 4 GPUs: 20 Verilated units in lockstep with their shells, mixed kernel, 64 loads per GPU | default | $r cycles/s |"
  fi
  if [ -d tb/stc/bench ]; then
    echo
    python3 scripts/stc-bench.py --cohmodel "$B/bin/cohmodel" --out "$B/stc-bench"
  fi
  echo
  echo "Figures before the simulation-speed changes (instruction counts per cycle, and the wall-clock rates measured then): docs/verification.md, section Simulation speed."
} | tee "$out"
echo "bench: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); written to $out"
