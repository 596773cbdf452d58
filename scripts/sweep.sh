#!/usr/bin/env bash
# Configuration sweep: every configuration of each LIST (tb/<unit>_sweep.txt:
# lines "NAME cohgen-options", '#' comments) is generated, lint-clean under
# Verilator, Icarus and Yosys, passes lockstep on two seeds with back-pressure
# on every stream of the unit (with no broken promise where the bench counts
# them), and replays identically through Icarus.
#   scripts/sweep.sh [--sample] OUT_DIR LIST...
# A line starting with '+' is in the sample that make test runs (--sample);
# without --sample every line runs. The sample lints with Verilator and
# Icarus only (LINT_YOSYS=0: Yosys's prep is half of a small line's time);
# the full sweep (make sweep-full, in make regress) adds Yosys.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
sample=0
[ "${1:-}" = --sample ] && { sample=1; shift; }
out=$1; shift
B=${B:-build}
mkdir -p "$out"
# Verilated at -O1: a sweep line's model runs a few hundred thousand cycles,
# so its compile time counts more than its speed.
export SWEEP_OUT=$out SWEEP_CYCLES=${SWEEP_CYCLES:-150000} B sample VOPT=${VOPT:--O1}
# the Icarus replay: 1,500 cycles a line with --sample, 3,000 without
SWEEP_IVL_CYCLES=${SWEEP_IVL_CYCLES:-$([ $sample -eq 1 ] && echo 1500 || echo 3000)}
export SWEEP_IVL_CYCLES
LINT_YOSYS=${LINT_YOSYS:-$([ $sample -eq 1 ] && echo 0 || echo 1)}
export LINT_YOSYS
one() {
  local unit=$1 name=$2; shift 2
  local family prefix dir="$SWEEP_OUT/$unit/$name" tb t0=$SECONDS
  read -r _ family prefix < <("$B/bin/cohgen" --list=units | awk -v u="$unit" '$1 == u')
  rm -f "$SWEEP_OUT/$unit.$name.ok"
  {
    scripts/unit-bench.sh "$SWEEP_OUT/$unit" "$name" "$unit" "$@" || exit 1
    tb="$dir/tb_$family"
    for seed in 1 2; do
      "$tb" --unit "$unit" --config "$name" --seed "$seed" --cycles "$SWEEP_CYCLES" --fail-prefix "$dir/fail$seed" \
        >"$dir/run$seed.log"
      tail -2 "$dir/run$seed.log" | grep -q '^PASS' || { echo "lockstep failed: $tb --unit $unit --config $name --seed $seed --cycles $SWEEP_CYCLES"; exit 1; }
      # a bench that judges the unit (its summary's broken promises) must find none
      ! grep -q '^broken promises [1-9]' "$dir/run$seed.log" ||
        { grep '^broken promises' "$dir/run$seed.log"; echo "broken promises: $tb --unit $unit --config $name --seed $seed --cycles $SWEEP_CYCLES"; exit 1; }
    done
    "$tb" --unit "$unit" --config "$name" --seed 3 --cycles "$SWEEP_IVL_CYCLES" --stim-out "$dir/stim" --log "$dir/vlt.log" >/dev/null || exit 1
    iverilog -g2012 -y "$dir/rtl" -Y .sv -o "$dir/sim.vvp" "$dir/rtl/${prefix}_$name.sv" "$dir/rtl/${prefix}_${name}_tb.sv" || exit 1
    vvp -n "$dir/sim.vvp" +stim="$dir/stim" +out="$dir/ivl.log" >/dev/null || exit 1
    cmp -s "$dir/vlt.log" "$dir/ivl.log" || { echo "Icarus output differs from Verilator ($dir)"; exit 1; }
  } >"$SWEEP_OUT/$unit.$name.log" 2>&1 && touch "$SWEEP_OUT/$unit.$name.ok"
  echo $((SECONDS - t0)) >"$SWEEP_OUT/$unit.$name.sec"
}
export -f one
entries() {  # "unit name options..." for every list
  local l u
  for l in "$@"; do
    u=$(basename "$l" _sweep.txt)
    grep -v '^\s*\(#\|$\)' "$l" | { if [ $sample -eq 1 ]; then grep '^+'; else cat; fi; } |
      sed "s/^+//; s/^/$u /"
  done
}
progress_start "$(entries "$@" | wc -l)" configurations
entries "$@" | xargs -P "${JOBS:-2}" -L1 bash -c '(one "$@"); echo' one |
  { k=0; while read -r _; do k=$((k + 1)); progress_step $k; done; progress_end; }
pass=0 failn=0
while read -r unit name opts; do
  if [ -f "$out/$unit.$name.ok" ]; then echo "sweep: PASS $unit $name ($opts) $(cat "$out/$unit.$name.sec") s"; pass=$((pass+1))
  else echo "sweep: FAIL $unit $name ($opts)"; tail -8 "$out/$unit.$name.log" | sed 's/^/    /'; failn=$((failn+1)); fi
done < <(entries "$@")
echo "sweep: $pass passed, $failn failed"
[ "$failn" -eq 0 ] && [ "$pass" -gt 0 ]
