#!/usr/bin/env bash
# Bounded model check of the DualOpt MSHR's `ifdef FORMAL` properties with
# yosys-smtbmc and z3 on a small configuration: a HIT names a valid entry of
# the request's line whose mask contains the request's; an entry is freed
# only by a fill naming it, and a kept entry's line and mask never change.
# Then each property must fail on a mutant that breaks it.
#   scripts/dualopt-mshr-formal.sh OUT_DIR [DEPTH]
set -uo pipefail
out=$1 depth=${2:-12}
B=${B:-build}
opts="--entries 4 --targets 2 --addr-bits 16 --line 64 --gran 16 --tag-bits 3"
mkdir -p "$out"
"$B/bin/cohgen" dualopt-mshr $opts --name f_good -o "$out" >/dev/null || exit 2
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
if check f_good; then echo "formal: MSHR properties hold to depth $depth ($opts)"; pass=$((pass+1))
else echo "formal: FAILED on the real design: $out/f_good.bmc.log"; failn=$((failn+1)); fi
# overlap instead of containment; a fill that frees its neighbour too
mutant f_overlap 's/((rq_mask_q \& ~mask_q\[7:4\]) == 4'"'"'d0)/((rq_mask_q \& mask_q[7:4]) != 4'"'"'d0)/'
mutant f_free 's/assign live\[1\] = valid_q\[1\] \& ~fill_sel\[1\];/assign live[1] = valid_q[1] \& ~fill_sel[1] \& ~fill_sel[0];/'
for m in f_overlap f_free; do
  if check $m; then echo "formal: mutant $m NOT caught"; failn=$((failn+1))
  elif grep -q 'Assert failed' "$out/$m.bmc.log"; then
    echo "formal: mutant $m caught ($(grep -m1 'Assert failed' "$out/$m.bmc.log" | sed 's/.*Assert failed in //'))"; pass=$((pass+1))
  else echo "formal: mutant $m run failed: $out/$m.bmc.log"; failn=$((failn+1)); fi
done
echo "formal: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
