#!/usr/bin/env bash
# The DualOpt decision engine's properties (the `ifdef FORMAL` block of the
# generated RTL: the mode changes only by a published decision out of MONITOR
# or by a reset / re-monitoring, counters stay within the window) on more
# configurations than make formal's de_f3, with yosys-smtbmc and z3: each
# proved by 1-induction with the s_* strengthening invariants (base case to
# depth 2, then the step); then a bounded check to DEPTH must fail on a mutant
# that publishes a decision cancelled by a reset.
#   scripts/dualopt-de-formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-20}
B=${B:-build}
# name: options (warm-up and re-monitoring; neither; hit rate over all
# remote accesses; an explicit window bound; the default 20000-access window)
configs=(
  "f_de:--window 3 --warmup 2 --words 2 --remonitor-on-kernel"
  "f_de_plain:--window 3 --words 2"
  "f_de_all:--window 5 --warmup 3 --words 4 --hit-over all --remonitor-on-kernel"
  "f_de_max:--window 4 --warmup 1 --max-total 9 --words 16 --remonitor-on-kernel"
  "f_de_default:--config default"
)
mkdir -p "$out"
smt2() {  # top -> $out/top.smt2
  local n=$1
  yosys -q -p "read_verilog -sv -formal $out/$n.sv; prep -top $n; async2sync; dffunmap; \
    write_smt2 -wires $out/$n.smt2" >"$out/$n.yosys.log" 2>&1
}
fail=0
for c in "${configs[@]}"; do
  n=${c%%:*} opts=${c#*:}
  # shellcheck disable=SC2086
  "$B/bin/cohgen" dualopt-de $opts --name "$n" -o "$out" >/dev/null || exit 2
  smt2 "$n" || { echo "formal-de: yosys failed: $out/$n.yosys.log"; fail=1; continue; }
  if ! yosys-smtbmc -s z3 --unroll -t 2 "$out/$n.smt2" >"$out/$n.base.log" 2>&1; then
    echo "formal-de: FAILED (base case, $opts): $out/$n.base.log"; fail=1
  elif ! yosys-smtbmc -s z3 --unroll -i -t 1 "$out/$n.smt2" >"$out/$n.induct.log" 2>&1; then
    echo "formal-de: FAILED (induction step, $opts): $out/$n.induct.log"; fail=1
  else echo "formal-de: proved (1-induction) ($opts)"; fi
done
sed 's/else if (s2_valid_q & s2_live_q)/else if (s2_valid_q)/' "$out/f_de.sv" | sed 's/module f_de /module f_de_mut /' >"$out/f_de_mut.sv"
cmp -s "$out/f_de.sv" "$out/f_de_mut.sv" && { echo "formal-de: the mutation did not apply"; exit 2; }
smt2 f_de_mut || { echo "formal-de: yosys failed: $out/f_de_mut.yosys.log"; exit 2; }
if yosys-smtbmc -s z3 --unroll -t "$depth" "$out/f_de_mut.smt2" >"$out/f_de_mut.bmc.log" 2>&1; then
  echo "formal-de: mutant (cancelled decision published) NOT caught"; fail=1
elif grep -q 'Assert failed' "$out/f_de_mut.bmc.log"; then
  echo "formal-de: mutant caught ($(grep -m1 'Assert failed' "$out/f_de_mut.bmc.log" | sed 's/.*Assert failed in //'))"
else echo "formal-de: mutant run failed: $out/f_de_mut.bmc.log"; fail=1; fi
exit $fail
