#!/usr/bin/env bash
# Bounded model check of the DualOpt RDMA cache's `ifdef FORMAL` properties
# with yosys-smtbmc and z3 on a small configuration (2 sets x 2 ways x 8 B):
# a write-back carries only bytes written since the line's last write-back
# and never an empty mask; when a flush completes, and when an atomic is
# forwarded, every written byte of the line has gone home; the outgoing and
# response payloads hold under back-pressure. Then each of two mutants must
# violate an assertion.
#   scripts/dualopt-rcache-formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-12}
B=${B:-build}
opts="--sets 2 --ways 2 --line 8 --addr-bits 16"
mkdir -p "$out"
"$B/bin/cohgen" dualopt-rcache $opts --name f_good -o "$out" >/dev/null || exit 2
check() {  # name -> 0 when every assertion holds to the depth
  local n=$1
  yosys -q -p "read_verilog -sv -formal $out/$n.sv; prep -top $n; async2sync; dffunmap; \
    write_smt2 -wires $out/$n.smt2" >"$out/$n.yosys.log" 2>&1 || return 2
  yosys-smtbmc -s z3 --unroll -t "$depth" "$out/$n.smt2" >"$out/$n.bmc.log" 2>&1
}
mutant() {  # name sed-expression: a copy of f_good with one change
  sed -e "s/module f_good/module $1/" -e "$2" "$out/f_good.sv" >"$out/$1.sv"
  cmp -s "$out/f_good.sv" "$out/$1.sv" && sed -i '1s/^/MUTATION DID NOT APPLY/' "$out/$1.sv"
}
pass=0 failn=0
if check f_good; then echo "formal: RDMA cache properties hold to depth $depth ($opts)"; pass=$((pass+1))
else echo "formal: FAILED on the real design: $out/f_good.bmc.log"; failn=$((failn+1)); fi
# an installed line is marked dirty whole; the flush writes nothing back
mutant f_dirty 's/^\( *upd_word\[[0-9]* + i\*8 +: 8\]\) = wr_be;/\1 = full_be;/'
mutant f_skip 's/assign pend = way_valid & way_dirty & ~fl_done_q;/assign pend = 2'"'"'b00;/'
for m in ${MUTANTS:-f_dirty f_skip}; do
  if check $m; then echo "formal: mutant $m NOT caught"; failn=$((failn+1))
  elif grep -q 'Assert failed' "$out/$m.bmc.log"; then
    echo "formal: mutant $m caught ($(grep -m1 'Assert failed' "$out/$m.bmc.log" | sed 's/.*Assert failed in //'))"; pass=$((pass+1))
  else echo "formal: mutant $m run failed: $out/$m.bmc.log"; failn=$((failn+1)); fi
done
echo "formal: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
