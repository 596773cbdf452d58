#!/usr/bin/env bash
# make bench: for every committed configuration of every unit, a stimulus is
# recorded once, then replayed through the Verilated RTL alone and through the
# lockstep bench (model + RTL), so the model's share of lockstep time is a
# measured ratio; then each family's measurements (scripts/<family>-bench.sh:
# rows of the measurement table, and tables of their own; exit 1 if one of
# its checks fails). Writes build/bench.md. Figures depend on the machine;
# nothing here fails on a slow one. BENCH_IPC=0 leaves out the instructions
# per cycle (valgrind; about 2 minutes). Progress (scripts/progress.sh): benches
# done (a configuration's, a family's) of the total, on standard error.
set -euo pipefail
. "$(dirname "$0")/progress.sh"
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
export -f rate
{
  echo "M simulated cycles per second, wall clock / per CPU second (the second figure is one core's rate when the machine is shared)."
  echo
  echo "| unit | configuration | RTL alone (M cycles/s) | lockstep model+RTL (M cycles/s) | lockstep / RTL time (CPU) |"
  echo "|---|---|---|---|---|"
  fams=$("$B/bin/cohgen" --list=units | awk '{print $2}' | sort -u)
  k=0
  ipc_on=0
  if [ "${BENCH_IPC:-1}" = 1 ] && command -v valgrind >/dev/null; then ipc_on=1; fi
  progress_start $(($("$B/bin/cohgen" --list=configs | wc -l) + ipc_on + $(for fam in $fams; do
    if [ -x "scripts/$fam-bench.sh" ]; then echo "$fam"; fi; done | wc -l))) benches
  while read -r unit family m p; do
    s="$B/bench/$m.stim"
    "./tb_$family" --unit "$unit" --config "$p" --seed 1 --cycles "$CYC" --stim-out "$s" >/dev/null
    rtl=$("./tb_$family" --unit "$unit" --config "$p" --replay "$s" --rtl-only | rate)
    ls=$("./tb_$family" --unit "$unit" --config "$p" --replay "$s" | rate)
    echo "| $unit | $p | $rtl | $ls | $(awk -v a="${rtl#*/}" -v b="${ls#*/}" 'BEGIN{ if (b > 0) printf "%.2f", a/b; else print "-" }') |"
    rm -f "$s"
    k=$((k + 1)); progress_step $k
  done < <("$B/bin/cohgen" --list=configs)
  echo
  # Instructions per simulated cycle of each unit's lockstep bench (default
  # configuration, generated stream): the counts of scripts/speed-results.sh
  # (callgrind: the same on a loaded machine), as a table
  if [ $ipc_on = 1 ]; then
    echo "Instructions per simulated cycle of the lockstep bench (default configuration, generated stream, seed 1; callgrind; scripts/speed-results.sh, as make results-speed):"
    echo
    echo "| unit | instructions per cycle | Verilated RTL | timing shell, stimulus, comparison |"
    echo "|---|---|---|---|"
    B="$B" scripts/speed-results.sh | awk -F, '!/^#/ && $1 != "unit" { print "| " $1 " | " $2 " | " $3 " | " $4 " |" }'
    echo
    k=$((k + 1)); progress_step $k
  fi
  echo "| measurement | configuration | result |"
  echo "|---|---|---|"
  # each family's rows and tables (scripts/<family>-bench.sh)
  for fam in $fams; do
    if [ -x "scripts/$fam-bench.sh" ]; then "scripts/$fam-bench.sh"; k=$((k + 1)); progress_step $k; fi
  done
  progress_end
  echo
  echo "Figures before the simulation-speed changes (instruction counts per cycle, and the wall-clock rates measured then): docs/verification.md, section Simulation speed."
} | tee "$out"
echo "bench: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); written to $out"
