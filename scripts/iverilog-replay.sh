#!/usr/bin/env bash
# Second simulator: the stimulus recorded by ./tb_rec is replayed through
# Icarus; its per-cycle outputs must equal Verilator's (and so the model's).
#   scripts/iverilog-replay.sh OUT_DIR PRESET...
set -uo pipefail
out=$1; shift
mkdir -p "$out"
pass=0 failn=0
for p in "$@"; do
  m=rec_$p
  cycles=6000
  [ "$p" = default ] || [ "$p" = baseline ] || [ "$p" = hmg ] && cycles=12000
  ok=1
  ./tb_rec --config "$p" --seed 5 --cycles "$cycles" --stim-out "$out/$p.stim" --log "$out/$p.vlt" >"$out/$p.tb.log" || ok=0
  iverilog -g2012 -o "$out/$p.vvp" "rtl/rec/$m.sv" "rtl/rec/${m}_tb.sv" || ok=0
  vvp -n "$out/$p.vvp" +stim="$out/$p.stim" +out="$out/$p.ivl" >/dev/null || ok=0
  if [ $ok -eq 1 ] && cmp -s "$out/$p.vlt" "$out/$p.ivl" && [ "$(wc -l <"$out/$p.ivl")" -gt 1000 ]; then
    echo "sim-iverilog: $p: $(wc -l <"$out/$p.ivl") cycles identical (Icarus vs Verilator/model)"
    pass=$((pass+1))
  else
    echo "sim-iverilog: $p: outputs differ or the run failed (see $out)"; failn=$((failn+1))
  fi
done
echo "sim-iverilog: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
