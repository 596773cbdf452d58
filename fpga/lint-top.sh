#!/usr/bin/env bash
# Lints a self-test top with the unit under it on the three tools, as
# scripts/lint.sh does for generated RTL: Verilator -Wall, Icarus -Wall,
# Yosys check -assert with no latches. Silent when clean.
#   fpga/lint-top.sh TOP TOP.sv UNIT.sv
# A composite unit's part modules are found by name beside UNIT.sv. A
# committed unit (under rtl/) is a black box to Yosys here: make synth-check
# runs the same Yosys checks on it, so only the top's own logic and its
# connections to the unit's ports are processed again.
set -uo pipefail
top=$1; shift
lib=$(dirname "${@: -1}")
out=$(verilator --lint-only -Wall --top-module "$top" -y "$lib" "$@" 2>&1) || true
[ -z "$out" ] || { echo "$out"; exit 1; }
out=$(iverilog -g2012 -Wall -s "$top" -y "$lib" -Y .sv -o /dev/null "$@" 2>&1) || true
[ -z "$out" ] || { echo "$out"; exit 1; }
unit=${*: -1}
case "$unit" in
  rtl/*) rd="read_verilog -sv ${*:1:$#-1}; read_verilog -sv -lib $unit; hierarchy -top $top" ;;
  *) rd="read_verilog -sv $*; hierarchy -libdir $lib -top $top" ;;
esac
yosys -q -p "$rd; prep -top $top; check -assert; \
  select -assert-none t:\$dlatch t:\$adlatch t:\$sr" >/dev/null 2>&1 || {
  echo "fpga-lint: $top: yosys check failed"; exit 1; }
echo "fpga-lint: $top clean (verilator -Wall, iverilog -Wall, yosys check -assert)"
