#!/usr/bin/env bash
# Second simulator: for every committed configuration of every unit of the
# given families, the stimulus recorded by ./tb_<family> is replayed through
# Icarus with the generated replay bench ($B/harness/, make harness); its
# per-cycle outputs must equal Verilator's (and so the model's). The module
# and its bench are compiled with -Wall: any Icarus warning fails (with the
# Verilator -Wall build of make verilate, which fails on any warning, this
# is the committed RTL's lint in make test; make lint-sim runs the same two
# tools through scripts/lint.sh).
#   scripts/iverilog-replay.sh OUT_DIR FAMILY...
set -uo pipefail
. "$(dirname "$0")/progress.sh"
out=$1; shift
B=${B:-build}
CYCLES=${IVL_CYCLES:-6000}
mkdir -p "$out"
pass=0 failn=0
progress_start "$("$B/bin/cohgen" --list=configs | awk -v f=" $* " 'index(f, " " $2 " ")' | wc -l)" configurations
for fam in "$@"; do
  while read -r unit family m p; do
    [ "$family" = "$fam" ] || continue
    ok=1 t="$out/$m"
    "./tb_$family" --unit "$unit" --config "$p" --seed 5 --cycles "$CYCLES" --stim-out "$t.stim" --log "$t.vlt" >"$t.tb.log" || ok=0
    iverilog -g2012 -Wall -y "rtl/$family" -Y .sv -o "$t.vvp" "rtl/$family/$m.sv" "$B/harness/$family/${m}_tb.sv" \
      >"$t.ivl.lint" 2>&1 || ok=0
    [ -s "$t.ivl.lint" ] && { echo "sim-iverilog: $m: iverilog -Wall:"; head -20 "$t.ivl.lint"; ok=0; }
    vvp -n "$t.vvp" +stim="$t.stim" +out="$t.ivl" >/dev/null || ok=0
    if [ $ok -eq 1 ] && cmp -s "$t.vlt" "$t.ivl" && [ "$(wc -l <"$t.ivl")" -gt 1000 ]; then
      echo "sim-iverilog: $m: $(wc -l <"$t.ivl") cycles identical (Icarus vs Verilator/model)"
      pass=$((pass+1))
    else
      echo "sim-iverilog: $m: outputs differ or the run failed (see $t.*)"; failn=$((failn+1))
    fi
    progress_step $((pass + failn))
  done < <("$B/bin/cohgen" --list=configs)
done
progress_end
echo "sim-iverilog: $pass passed, $failn failed"
[ "$failn" -eq 0 ] && [ "$pass" -gt 0 ]
