#!/usr/bin/env bash
# The DualOpt RDMA cache's `ifdef FORMAL` properties with yosys-smtbmc and z3
# (a write-back carries only bytes written since the line's last write-back
# and never an empty mask; when a flush leaves the line's set, when it
# completes, and when an atomic is forwarded, every written byte of the line
# has gone home; the outgoing and response payloads hold under
# back-pressure), proved by 1-induction with the s_* strengthening
# invariants (base case to depth 2, then the step) on small configurations
# beside make formal's rc_f2 (2 sets x 2 ways): one set, one way, three ways,
# three sets (a modulo index). Then each of two mutants must violate an
# assertion in a bounded check to DEPTH.
#   scripts/dualopt-rcache-formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-12}
B=${B:-build}
configs=(
  "f_good:--sets 2 --ways 2 --line 8 --addr-bits 16"
  "f_1set:--sets 1 --ways 2 --line 8 --addr-bits 16"
  "f_1way:--sets 4 --ways 1 --line 8 --addr-bits 16"
  "f_3way:--sets 2 --ways 3 --line 8 --addr-bits 16"
  "f_3set:--sets 3 --ways 2 --line 8 --addr-bits 16"
)
mkdir -p "$out"
smt2() {  # name -> $out/name.smt2
  local n=$1
  yosys -q -p "read_verilog -sv -formal $out/$n.sv; prep -top $n; memory_map; opt -fast; async2sync; dffunmap; \
    write_smt2 -wires $out/$n.smt2" >"$out/$n.yosys.log" 2>&1
}
pass=0 failn=0
for c in "${configs[@]}"; do
  n=${c%%:*} opts=${c#*:}
  # shellcheck disable=SC2086
  "$B/bin/cohgen" dualopt-rcache $opts --name "$n" -o "$out" >/dev/null || exit 2
  if ! smt2 "$n"; then echo "formal: yosys failed: $out/$n.yosys.log"; failn=$((failn+1))
  elif ! yosys-smtbmc -s z3 --unroll -t 2 "$out/$n.smt2" >"$out/$n.base.log" 2>&1; then
    echo "formal: FAILED (base case, $opts): $out/$n.base.log"; failn=$((failn+1))
  elif ! yosys-smtbmc -s z3 --unroll -i -t 1 "$out/$n.smt2" >"$out/$n.induct.log" 2>&1; then
    echo "formal: FAILED (induction step, $opts): $out/$n.induct.log"; failn=$((failn+1))
  else echo "formal: RDMA cache properties proved by 1-induction ($opts)"; pass=$((pass+1)); fi
done
mutant() {  # name sed-expression: a copy of f_good with one change
  sed -e "s/module f_good/module $1/" -e "$2" "$out/f_good.sv" >"$out/$1.sv"
  cmp -s "$out/f_good.sv" "$out/$1.sv" && sed -i '1s/^/MUTATION DID NOT APPLY/' "$out/$1.sv"
}
# an installed line is marked dirty whole; the flush writes nothing back
mutant f_dirty 's/^\( *upd_word\[[0-9]* + i\*8 +: 8\]\) = wr_be;/\1 = full_be;/'
mutant f_skip 's/assign pend = way_valid & way_dirty & ~fl_done_q;/assign pend = 2'"'"'b00;/'
for m in ${MUTANTS:-f_dirty f_skip}; do
  if ! smt2 "$m"; then echo "formal: mutant $m: yosys failed: $out/$m.yosys.log"; failn=$((failn+1))
  elif yosys-smtbmc -s z3 --unroll -t "$depth" "$out/$m.smt2" >"$out/$m.bmc.log" 2>&1; then
    echo "formal: mutant $m NOT caught"; failn=$((failn+1))
  elif grep -q 'Assert failed' "$out/$m.bmc.log"; then
    echo "formal: mutant $m caught ($(grep -m1 'Assert failed' "$out/$m.bmc.log" | sed 's/.*Assert failed in //'))"; pass=$((pass+1))
  else echo "formal: mutant $m run failed: $out/$m.bmc.log"; failn=$((failn+1)); fi
done
echo "formal: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
