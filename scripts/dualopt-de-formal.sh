#!/usr/bin/env bash
# Bounded model check of the DualOpt decision engine's properties (the
# `ifdef FORMAL` block of the generated RTL: the mode changes only by a
# published decision out of MONITOR or by a reset / re-monitoring, counters
# stay within the window) with yosys-smtbmc and z3, on a small configuration
# with warm-up and re-monitoring; then the same check must fail on a mutant
# that publishes a decision cancelled by a reset.
#   scripts/dualopt-de-formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-20}
B=${B:-build}
opts="--window 3 --warmup 2 --words 2 --remonitor-on-kernel"
mkdir -p "$out"
"$B/bin/cohgen" dualopt-de $opts --name f_de -o "$out" >/dev/null || exit 2
sed 's/else if (s2_valid_q & s2_live_q)/else if (s2_valid_q)/' "$out/f_de.sv" | sed 's/module f_de /module f_de_mut /' >"$out/f_de_mut.sv"
cmp -s "$out/f_de.sv" "$out/f_de_mut.sv" && { echo "formal-de: the mutation did not apply"; exit 2; }
check() {  # top -> 0 when every assertion holds to the depth
  local n=$1
  yosys -q -p "read_verilog -sv -formal $out/$n.sv; prep -top $n; async2sync; dffunmap; \
    write_smt2 -wires $out/$n.smt2" >"$out/$n.yosys.log" 2>&1 || return 2
  yosys-smtbmc -s z3 --unroll -t "$depth" "$out/$n.smt2" >"$out/$n.bmc.log" 2>&1
}
fail=0
if check f_de; then echo "formal-de: properties hold to depth $depth ($opts)"
else echo "formal-de: FAILED on the real design: $out/f_de.bmc.log"; fail=1; fi
if check f_de_mut; then echo "formal-de: mutant (cancelled decision published) NOT caught"; fail=1
elif grep -q 'Assert failed' "$out/f_de_mut.bmc.log"; then
  echo "formal-de: mutant caught ($(grep -m1 'Assert failed' "$out/f_de_mut.bmc.log" | sed 's/.*Assert failed in //'))"
else echo "formal-de: mutant run failed: $out/f_de_mut.bmc.log"; fail=1; fi
exit $fail
