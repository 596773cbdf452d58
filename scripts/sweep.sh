#!/usr/bin/env bash
# Configuration sweep: every configuration of LIST (lines "NAME cohgen-options",
# '#' comments) is generated, lint-clean under Verilator, Icarus and Yosys,
# passes lockstep on two seeds with back-pressure, and replays identically
# through Icarus.   scripts/sweep.sh LIST OUT_DIR
set -uo pipefail
list=$1 out=$2
mkdir -p "$out"
export SWEEP_OUT=$out SWEEP_CYCLES=${SWEEP_CYCLES:-150000}
one() {
  local name=$1; shift
  local dir="$SWEEP_OUT/$name"
  rm -f "$SWEEP_OUT/$name.ok"
  {
    scripts/rec-config.sh "$SWEEP_OUT" "$name" "$@" || exit 1
    for seed in 1 2; do
      "$dir/tb_rec" --config "$name" --seed "$seed" --cycles "$SWEEP_CYCLES" --fail-prefix "$dir/fail$seed" \
        | tail -2 | grep -q '^PASS' || { echo "lockstep failed: $dir/tb_rec --config $name --seed $seed --cycles $SWEEP_CYCLES"; exit 1; }
    done
    "$dir/tb_rec" --config "$name" --seed 3 --cycles 3000 --stim-out "$dir/stim" --log "$dir/vlt.log" >/dev/null || exit 1
    iverilog -g2012 -o "$dir/sim.vvp" "$dir/rtl/rec_$name.sv" "$dir/rtl/rec_${name}_tb.sv" || exit 1
    vvp -n "$dir/sim.vvp" +stim="$dir/stim" +out="$dir/ivl.log" >/dev/null || exit 1
    cmp -s "$dir/vlt.log" "$dir/ivl.log" || { echo "Icarus output differs from Verilator ($dir)"; exit 1; }
  } >"$SWEEP_OUT/$name.log" 2>&1 && touch "$SWEEP_OUT/$name.ok"
}
export -f one
grep -v '^\s*\(#\|$\)' "$list" | xargs -P "${JOBS:-2}" -L1 bash -c 'one "$@"' one
pass=0 failn=0
while read -r name opts; do
  if [ -f "$out/$name.ok" ]; then echo "sweep: PASS $name ($opts)"; pass=$((pass+1))
  else echo "sweep: FAIL $name ($opts)"; tail -8 "$out/$name.log" | sed 's/^/    /'; failn=$((failn+1)); fi
done < <(grep -v '^\s*\(#\|$\)' "$list")
echo "sweep: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
