#!/usr/bin/env bash
# Gate level: a committed configuration synthesized by Yosys runs in lockstep
# with its C model, every output port compared every cycle, as the RTL does
# in ./tb_<family>. The netlist, not the RTL, is Verilated with the unit's
# generated shim (same module name and ports) and linked into a bench of
# that one configuration (scripts/unit-bench.sh --rtl-from).
#   scripts/gatesim.sh OUT_DIR CYCLES ENTRY...
# ENTRY is UNIT:PRESET:FLOW, FLOW one of
#   ice40    synth_ice40 -top (SB_LUT4, SB_DFF*, SB_CARRY, SB_RAM40_4K),
#            simulated with Yosys's iCE40 cell models (ice40/cells_sim.v)
#   generic  prep -flatten, techmap to Yosys's internal gate library (one-
#            bit gates, muxes and flip-flops; RAMs kept as arrays), written
#            by write_verilog (no logic optimisation: synth's fine steps
#            take tens of minutes on the widest units)
#   control  the ice40 flow on the RTL with its first output port stuck at
#            zero: the lockstep must fail (the bench sees the netlist)
# Each entry: lockstep on seeds 1 and 2 for CYCLES cycles each (the unit's
# default stream), then one line "gatesim: PASS|FAIL unit preset flow ...".
# Both flows end with splitnets -driver: a netlist's multi-bit wires whose
# bits have different drivers (an adder's carry chain written bit by bit
# into one vector) become one wire a bit (a RAM's read data stays whole).
# Verilator orders a vector as one variable, so such a chain is a false
# combinational loop to it (UNOPTFLAT); Verilator 5.006 then computed wrong
# outputs on three default presets' netlists and did not settle on a fourth,
# while Icarus on the same netlists agreed with the RTL.
# The netlists are compiled at VOPT (default -O0: a flat netlist compiles
# five times faster than at -O2 and runs at tens of thousands of cycles a
# second). Last line: "gatesim: N passed, M failed"; exit 1 if M > 0, 2 on
# a malformed entry.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
out=${1:-} cycles=${2:-}
shift 2 2>/dev/null || true
B=${B:-build}
export VOPT=${VOPT:--O0}
die() { echo "gatesim: $*" >&2; exit 2; }
[ -n "$out" ] && [[ $cycles =~ ^[1-9][0-9]*$ ]] && [ $# -gt 0 ] ||
  die "usage: scripts/gatesim.sh OUT_DIR CYCLES UNIT:PRESET:ice40|generic|control..."
cells=$(yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)/ice40/cells_sim.v
[ -r "$cells" ] || die "cannot read the iCE40 cell models '$cells'"
units=$("$B/bin/cohgen" --list=configs) || die "cannot run $B/bin/cohgen"
for e in "$@"; do
  IFS=: read -r u p f <<<"$e"
  [[ ${f:-} == ice40 || ${f:-} == generic || ${f:-} == control ]] || die "entry '$e': flow '${f:-}' is not ice40, generic or control"
  awk -v u="${u:-}" -v p="${p:-}" '$1 == u && $4 == p {ok=1} END {exit !ok}' <<<"$units" ||
    die "entry '$e': '${u:-}' '${p:-}' is not a committed configuration (cohgen --list=configs)"
done
mkdir -p "$out"

one() {  # unit preset flow -> 0 when the result is the one the flow wants
  local u=$1 p=$2 f=$3 family m dir src t0 why="" seed
  read -r _ family m _ < <(awk -v u="$u" -v p="$p" '$1 == u && $4 == p' <<<"$units")
  dir="$out/$f/$u.$p"; src="$dir/src"
  rm -rf "$dir"; mkdir -p "$src"
  t0=$(date +%s)
  local rtl="rtl/$family/$m.sv" synth="synth_ice40 -top $m; splitnets -driver"
  [ "$f" = generic ] && synth="prep -flatten -top $m; memory -nomap; techmap; opt_clean -purge; splitnets -driver"
  if [ "$f" = control ]; then
    # the first output port stuck at zero
    local o
    o=$(grep -m1 -oE '^\s*output\s+(wire|logic|reg)?\s*(\[[^]]*\])?\s*[A-Za-z_][A-Za-z0-9_]*' "$rtl" | awk '{print $NF}')
    [ -n "$o" ] || { echo "gatesim: FAIL $u $p $f: no output port in $rtl"; return 1; }
    python3 - "$rtl" "$dir/stuck.sv" "$o" <<'PY' || { echo "gatesim: FAIL $u $p $f: cannot stick $o"; return 1; }
# every use of the port in the body names a new wire; the port is tied to 0
import re, sys
src, dst, o = sys.argv[1:4]
s = open(src).read()
head, body = s.split(");", 1)
body = re.sub(r"\b%s\b" % re.escape(o), o + "_gsx", body)
k = body.rindex("endmodule")
body = ("\n  logic [$bits(%s)-1:0] %s_gsx;" % (o, o) + body[:k] +
        "  assign %s = '0;\n" % o + body[k:])
open(dst, "w").write(head + ");" + body)
PY
    rtl="$dir/stuck.sv"
  fi
  if ! yosys -q -p "read_verilog -sv $rtl; hierarchy -libdir rtl/$family; $synth; tee -q -o $dir/stat.txt stat; write_verilog -noattr $dir/net.v" \
      >"$dir/yosys.log" 2>&1; then
    echo "gatesim: FAIL $u $p $f: yosys ($dir/yosys.log)"; return 1
  fi
  if [ "$f" = generic ]; then cp "$dir/net.v" "$src/$m.sv"
  else
    # the cell models without default port values (Verilator 5.006), the RAMs'
    # undefined initial contents as zeros (the units never read a word they
    # did not write)
    { echo '`define NO_ICE40_DEFAULT_ASSIGNMENTS'; sed -E "s/([0-9]+)'hx+/\1'h0/" "$dir/net.v"; cat "$cells"; } >"$src/$m.sv"
  fi
  cp "$B/harness/$family/${m}_shim.cpp" "$src/"
  local ncell
  ncell=$(awk '/Number of cells/ {n = $NF} END {print n + 0}' "$dir/stat.txt")
  if ! scripts/unit-bench.sh --no-lint --rtl-from "$src" "$dir" "$p" "$u" >"$dir/build.log" 2>&1; then
    echo "gatesim: FAIL $u $p $f: the netlist's bench did not build ($dir/build.log)"; return 1
  fi
  local rc=0
  for seed in 1 2; do
    "$dir/$p/tb_$family" --unit "$u" --config "$p" --seed "$seed" --cycles "$cycles" \
      --fail-prefix "$dir/fail$seed" >"$dir/run$seed.log" 2>&1 || { rc=1; why="seed $seed: $(grep -m1 MISMATCH "$dir/run$seed.log")"; break; }
  done
  local secs=$(( $(date +%s) - t0 ))
  if [ "$f" = control ]; then
    if [ $rc -ne 0 ] && grep -q MISMATCH "$dir/run1.log"; then
      echo "gatesim: PASS $u $p $f: the stuck port is caught ($why) [$secs s]"; return 0
    fi
    echo "gatesim: FAIL $u $p $f: the stuck port was not caught [$secs s]"; return 1
  fi
  if [ $rc -eq 0 ]; then
    echo "gatesim: PASS $u $p $f: 2 x $cycles cycles, netlist outputs equal to the model's every cycle ($ncell cells; $(grep -m1 'per CPU second' "$dir/run1.log" | grep -oE '[0-9]+$') cycles per CPU second) [$secs s]"
    return 0
  fi
  echo "gatesim: FAIL $u $p $f: $why (replay: $dir/fail1.stim or fail2.stim) [$secs s]"; return 1
}

pass=0 failn=0
progress_start $# entries
for e in "$@"; do
  IFS=: read -r u p f <<<"$e"
  if one "$u" "$p" "$f"; then pass=$((pass+1)); else failn=$((failn+1)); fi
  progress_step $((pass + failn))
done
progress_end
echo "gatesim: $pass passed, $failn failed"
[ "$failn" -eq 0 ]
