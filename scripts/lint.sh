#!/usr/bin/env bash
# Lints generated RTL with the three tools; any warning fails.
#   scripts/lint.sh FILE.sv...
# The replay bench is FILE_tb.sv beside FILE.sv, or for the committed
# rtl/<family>/M.sv the generated $B/harness/<family>/M_tb.sv (make harness).
# Verilator --lint-only -Wall, Icarus -g2012 -Wall (with the replay bench),
# Yosys: prep, check -assert (no multiple drivers, no combinational loops),
# no latches, and the entry array inferred as a memory (unless the module's
# header says 'Storage: ... no RAM by design'). A composite's part modules
# (files named after them, beside it: gen/parts.h) are found by name.
# LINT_YOSYS=0 leaves the Yosys part out: make test lints the committed RTL
# with Verilator and Icarus (make lint-sim) and `make synth-check` runs the
# same Yosys checks, stricter (the exact RAMs), on every committed module.
set -euo pipefail
B=${B:-build}
yosys_lint=${LINT_YOSYS:-1}
fail=0
for f in "$@"; do
  m=$(basename "$f" .sv); d=$(dirname "$f")
  out=$(verilator --lint-only -Wall -y "$d" "$f" 2>&1) || true
  if [ -n "$out" ]; then echo "lint: verilator: $f"; echo "$out" | head -20; fail=1; fi
  tb="$d/${m}_tb.sv"
  [ -f "$tb" ] || tb="$B/harness/$(basename "$d")/${m}_tb.sv"
  out=$(iverilog -g2012 -Wall -y "$d" -Y .sv -o /dev/null "$f" "$tb" 2>&1) || true
  if [ -n "$out" ]; then echo "lint: iverilog: $f"; echo "$out" | head -20; fail=1; fi
  if [ "$yosys_lint" = 0 ]; then
    [ $fail -eq 0 ] && echo "lint: $m clean (verilator, iverilog; yosys: make synth-check)"
    continue
  fi
  # a one-set directory (entries == ways) is a register file by design; a
  # unit without an array says so in its header ("No memory array")
  memchk="select -assert-min 1 t:\$mem*"
  grep -q 'One set (entries == ways): a register\|No memory array' "$f" && memchk=""
  # a unit whose header says it has no RAM (registers only) by design
  grep -q '^// Storage: .*no RAM by design\|(lint: no memory)' "$f" && memchk=""
  out=$(yosys -q -p "read_verilog -sv $f; hierarchy -libdir $d -top $m; prep -top $m; check -assert; \
        select -assert-none t:\$dlatch t:\$adlatch t:\$sr; $memchk" 2>&1) || {
    echo "lint: yosys: $f"; echo "$out" | tail -20; fail=1; }
  if [ -n "$out" ]; then echo "lint: yosys warnings: $f"; echo "$out" | head -20; fail=1; fi
  [ $fail -eq 0 ] && echo "lint: $m clean (verilator, iverilog, yosys)"
done
exit $fail
