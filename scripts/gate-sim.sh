#!/usr/bin/env bash
# Gate level: the Yosys-synthesized netlist of a committed configuration
# replays the stimulus recorded by ./tb_rec through Icarus; its per-cycle
# outputs must equal the RTL's and the model's.
#   scripts/gate-sim.sh OUT_DIR PRESET [CYCLES]
set -euo pipefail
out=$1 p=$2 cycles=${3:-3000}
m=rec_$p
mkdir -p "$out"
yosys -q -p "read_verilog -sv rtl/rec/$m.sv; synth -top $m; write_verilog -noattr $out/${m}_gate.v" \
  >"$out/yosys.log" 2>&1
./tb_rec --config "$p" --seed 9 --cycles "$cycles" --stim-out "$out/$p.stim" --log "$out/$p.vlt" >/dev/null
iverilog -g2012 -o "$out/$p.vvp" "$out/${m}_gate.v" "${B:-build}/harness/rec/${m}_tb.sv"
vvp -n "$out/$p.vvp" +stim="$out/$p.stim" +out="$out/$p.gate" >/dev/null
if cmp -s "$out/$p.vlt" "$out/$p.gate" && [ "$(wc -l <"$out/$p.gate")" -gt 1000 ]; then
  echo "gate-sim: $p: $(wc -l <"$out/$p.gate") cycles of the synthesized netlist identical to the RTL"
  echo "gate-sim: 1 passed, 0 failed"
else
  echo "gate-sim: $p: netlist outputs differ from the RTL ($out)"; echo "gate-sim: 0 passed, 1 failed"; exit 1
fi
