#!/usr/bin/env bash
# Gate level: the Yosys-synthesized netlist of a committed configuration
# replays the stimulus recorded by its family's bench (./tb_<family>) through
# Icarus with the generated replay bench; its per-cycle outputs must equal
# the RTL's and the model's.
#   scripts/gate-sim.sh OUT_DIR UNIT PRESET [CYCLES]
set -euo pipefail
out=$1 unit=$2 p=$3 cycles=${4:-3000}
B=${B:-build}
read -r _ family prefix < <("$B/bin/cohgen" --list=units | awk -v u="$unit" '$1 == u')
[ -n "${prefix:-}" ] || { echo "gate-sim: unknown unit '$unit'" >&2; exit 2; }
m=${prefix}_$p
mkdir -p "$out"
yosys -q -p "read_verilog -sv rtl/$family/$m.sv; synth -top $m; write_verilog -noattr $out/${m}_gate.v" \
  >"$out/yosys.log" 2>&1
"./tb_$family" --unit "$unit" --config "$p" --seed 9 --cycles "$cycles" --stim-out "$out/$p.stim" \
  --log "$out/$p.vlt" >/dev/null
iverilog -g2012 -o "$out/$p.vvp" "$out/${m}_gate.v" "$B/harness/$family/${m}_tb.sv"
vvp -n "$out/$p.vvp" +stim="$out/$p.stim" +out="$out/$p.gate" >/dev/null
if cmp -s "$out/$p.vlt" "$out/$p.gate" && [ "$(wc -l <"$out/$p.gate")" -gt 1000 ]; then
  echo "gate-sim: $p: $(wc -l <"$out/$p.gate") cycles of the synthesized netlist identical to the RTL"
  echo "gate-sim: 1 passed, 0 failed"
else
  echo "gate-sim: $p: netlist outputs differ from the RTL ($out)"; echo "gate-sim: 0 passed, 1 failed"; exit 1
fi
