#!/usr/bin/env bash
# Bounded model check of the REC directory's interface properties (the
# `ifdef FORMAL` block of the generated RTL) with yosys-smtbmc and z3, on a
# small configuration; then the same check must fail on the known-bug mutant
# 6 of scripts/mutate.py (an invalidation dropped without its handshake:
# inv_ready_i ignored).   scripts/formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-12}
B=${B:-build}
opts="--gpus 3 --entries 4 --ways 2 --range 128 --addr-bits 16 --repl lru"
mkdir -p "$out"
check() {  # name [text of the mutated line] -> 0 when every assertion holds to the depth
  local n=$1
  "$B/bin/cohgen" rec $opts --name "$n" -o "$out" >/dev/null || return 2
  if [ -n "${2:-}" ]; then
    local id
    id=$(scripts/mutate.py --file "$out/$n.sv" --list | awk -F'\t' -v m="$2" 'index($4, m) {print $1; exit}')
    [ -n "$id" ] && scripts/mutate.py --file "$out/$n.sv" --apply "$id" --out "$out/$n.mut" >/dev/null || return 2
    mv "$out/$n.mut/$n.sv" "$out/$n.sv"
  fi
  yosys -q -p "read_verilog -sv -formal $out/$n.sv; prep -top $n; async2sync; dffunmap; \
    write_smt2 -wires $out/$n.smt2" >"$out/$n.yosys.log" 2>&1 || return 2
  yosys-smtbmc -s z3 --unroll -t "$depth" "$out/$n.smt2" >"$out/$n.bmc.log" 2>&1
}
pass=0 failn=0
if check f_good; then echo "formal: interface properties hold to depth $depth ($opts)"; pass=$((pass+1))
else echo "formal: FAILED on the real design: $out/f_good.bmc.log"; failn=$((failn+1)); fi
if check f_mut6 'if ((inv_valid_o)) job_pend_d'; then echo "formal: mutant 6 NOT caught"; failn=$((failn+1))
else grep -q 'Assert failed' "$out/f_mut6.bmc.log" && { echo "formal: mutant 6 caught ($(grep -m1 'Assert failed' "$out/f_mut6.bmc.log" | sed 's/.*Assert failed in //'))"; pass=$((pass+1)); } || { echo "formal: mutant 6 run failed: $out/f_mut6.bmc.log"; failn=$((failn+1)); }
fi
echo "formal: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
