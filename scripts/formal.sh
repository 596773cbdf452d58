#!/usr/bin/env bash
# Formal checks of every unit configuration in a list, with Yosys and
# yosys-smtbmc (z3), and the negative controls that keep each property group
# able to fail.   scripts/formal.sh [--sample] LIST OUT_DIR [CONTROLS]
#
# LIST, one configuration a line ('#' starts a comment):
#   <unit> <name> induct|bmc <depth> <cohgen options...>
# The configuration is generated with `cohgen <unit> <options> --name <name>`;
# its `ifdef FORMAL` block holds properties labelled p_<group>_* and
# strengthening invariants labelled s_*. `induct K`: proved by K-induction
# (base case: bounded check from reset to depth K+1; step: yosys-smtbmc -i -t
# K). `bmc D`: every assertion holds on every path of D cycles from reset.
#
# CONTROLS, one negative control a line:
#   <name> <group> <depth> <sed expression applied to the generated <name>.sv>
# The edit must change the file, and with only the group's p_<group>*
# assertions kept, a bounded check to <depth> must fail on one of them. Every
# property group in a unit's RTL needs at least one control. A control whose
# line starts with '+' is in the sample: with --sample (make test) only those
# run, at least one a configuration; every line is still parsed, its edit
# applied and the every-group rule checked. Without --sample (make
# formal-full, in make regress) every control runs.
#
# Each run prints: proved (induction, k=K) / bounded to depth D / FAILED with
# the assertion, its source line and the counterexample VCD. Exit 1 if
# anything failed, 2 on a malformed list.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
sample=0
[ "${1:-}" = --sample ] && { sample=1; shift; }
list=${1:-} out=${2:-} controls=${3:-}
B=${B:-build}
jobs=${FORMAL_JOBS:-2}
tmo=${FORMAL_TIMEOUT:-900}
die() { echo "formal: $*" >&2; exit 2; }
[ -n "$list" ] && [ -n "$out" ] || die "usage: scripts/formal.sh [--sample] LIST OUT_DIR [CONTROLS]"
[ -r "$list" ] || die "cannot read list '$list'"
[ -z "$controls" ] || [ -r "$controls" ] || die "cannot read controls '$controls'"

# Parse and validate both files before running anything.
declare -a c_unit c_name c_mode c_depth c_opts n_name n_group n_depth n_expr n_run
declare -A unit_of
n=0 ln=0
while IFS= read -r line || [ -n "$line" ]; do
  ln=$((ln+1)); line=${line%%#*}
  read -r unit name mode depth opts <<<"$line" || true
  [ -z "${unit:-}" ] && continue
  [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "$list:$ln: bad name '${name:-}'"
  [[ $mode == induct || $mode == bmc ]] || die "$list:$ln: mode '${mode:-}' is not induct or bmc"
  [[ ${depth:-} =~ ^[1-9][0-9]*$ ]] || die "$list:$ln: depth '${depth:-}' is not a positive integer"
  [ -z "${unit_of[$name]:-}" ] || die "$list:$ln: name '$name' used twice"
  c_unit[n]=$unit c_name[n]=$name c_mode[n]=$mode c_depth[n]=$depth c_opts[n]=${opts:-}
  unit_of[$name]=$unit; n=$((n+1))
done <"$list"
[ "$n" -gt 0 ] || die "$list: no configuration"
m=0 ln=0
if [ -n "$controls" ]; then
  while IFS= read -r line || [ -n "$line" ]; do
    ln=$((ln+1))
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    run=1; [ $sample -eq 1 ] && run=0
    [[ $line =~ ^[[:space:]]*\+ ]] && { run=1; line=${line#*+}; }
    read -r name group depth expr <<<"$line" || true
    [ -n "${unit_of[${name:-}]:-}" ] || die "$controls:$ln: configuration '${name:-}' is not in $list"
    [[ ${group:-} =~ ^[a-z]+$ ]] || die "$controls:$ln: bad group '${group:-}'"
    [[ ${depth:-} =~ ^[1-9][0-9]*$ ]] || die "$controls:$ln: depth '${depth:-}' is not a positive integer"
    [ -n "${expr:-}" ] || die "$controls:$ln: no edit"
    n_name[m]=$name n_group[m]=$group n_depth[m]=$depth n_expr[m]=$expr n_run[m]=$run; m=$((m+1))
  done <"$controls"
  # --sample: every configuration with controls has one in the sample
  if [ $sample -eq 1 ]; then
    for ((j=0; j<m; j++)); do
      ok=0
      for ((k=0; k<m; k++)); do [ "${n_name[$k]}" = "${n_name[$j]}" ] && [ "${n_run[$k]}" = 1 ] && ok=1; done
      [ $ok -eq 1 ] || die "$controls: configuration '${n_name[$j]}' has no control in the sample ('+')"
    done
  fi
fi

rm -rf "$out"; mkdir -p "$out"
t_start=$(date +%s)

# Yosys: read the unit's sources (formal), keep the assertions selected by
# KEEP (a label: KEEP and KEEP_*; empty for all), map memories
# to registers, write SMT2.
prepare() {  # dir top keep -> dir/top.smt2
  local dir=$1 top=$2 keep=$3 srcs f
  srcs=""; for f in "$dir"/*.sv; do case $f in *_tb.sv) ;; *) srcs="$srcs $f";; esac; done
  local strip=""
  [ -n "$keep" ] && strip="chformal -assert -remove t:\$assert */$keep */${keep}_* %u %d;"
  yosys -q -p "read_verilog -sv -formal $srcs; prep -top $top; check -assert; memory_map; opt -fast; \
    $strip async2sync; dffunmap; write_smt2 -wires $dir/$top.smt2" >"$dir/yosys.log" 2>&1
}
# The failing assertion of a smtbmc log: label (or source position), the
# source line, the step.
why() {  # log sv -> text
  local log=$1 sv=$2 a src step
  a=$(grep -m1 'Assert failed in' "$log" | sed 's/.*Assert failed in [^:]*: //')
  step=$(grep -o 'in step [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')
  if [[ $a =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
    src=$(grep -n "\\b$a: assert" "$sv" | head -1 | sed 's/^\([0-9]*\): */line \1: /')
  else src=$a; fi
  echo "assertion ${a:-?} at step ${step:-?} ($src)"
}
smt() {  # log vcd args... -> smtbmc status
  local log=$1 vcd=$2; shift 2
  timeout "$tmo" yosys-smtbmc -s z3 --unroll --dump-vcd "$vcd" "$@" >"$log" 2>&1
  local rc=$?
  [ $rc -eq 124 ] && echo "## timeout after ${tmo}s" >>"$log"
  return $rc
}

# CPU seconds (user + system) of the commands this shell has waited for: a
# run is a background subshell, so that is the run's own work. `times` runs
# without a pipe or substitution (a forked copy would report zero).
cpu() {  # times-file -> seconds
  awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] }
                 printf "%.0f", s }' "$1"
}

run_config() {  # index -> result line in $out/res.<i>
  local i=$1 name=${c_name[$1]} unit=${c_unit[$1]} mode=${c_mode[$1]} k=${c_depth[$1]}
  local dir="$out/$name" t0=$(date +%s) r
  mkdir -p "$dir"
  # shellcheck disable=SC2086
  if ! "$B/bin/cohgen" "$unit" ${c_opts[$i]} --name "$name" -o "$dir" >"$dir/cohgen.log" 2>&1; then
    r="FAILED: cohgen: $(head -1 "$dir/cohgen.log")"
  elif ! prepare "$dir" "$name" ""; then
    r="FAILED: yosys: $(grep -m1 -i error "$dir/yosys.log")"
  elif [ "$mode" = bmc ]; then
    if smt "$dir/bmc.log" "$dir/bmc.vcd" -t "$k" "$dir/$name.smt2"; then r="bounded to depth $k"
    else r="FAILED: $(why "$dir/bmc.log" "$dir/$name.sv"); trace $dir/bmc.vcd"; fi
  elif ! smt "$dir/base.log" "$dir/base.vcd" -t $((k+1)) "$dir/$name.smt2"; then
    r="FAILED (base case): $(why "$dir/base.log" "$dir/$name.sv"); trace $dir/base.vcd"
  elif ! smt "$dir/induct.log" "$dir/induct.vcd" -i -t "$k" "$dir/$name.smt2"; then
    r="FAILED (induction step, k=$k; a bug or a missing strengthening invariant: mode bmc tells): $(why "$dir/induct.log" "$dir/$name.sv"); trace $dir/induct.vcd"
  else r="proved (induction, k=$k)"; fi
  grep -q timeout "$dir"/*.log 2>/dev/null && r="FAILED: timeout after ${tmo}s ($dir)"
  times >"$dir/times"
  echo "$r [$(( $(date +%s) - t0 )) s wall, $(cpu "$dir/times") s cpu]" >"$out/res.c$i"
}

run_control() {  # index -> result line in $out/res.n<j>
  local j=$1 name=${n_name[$1]} group=${n_group[$1]} d=${n_depth[$1]} expr=${n_expr[$1]}
  local dir="$out/ctl$j.$name.$group" t0=$(date +%s) r
  mkdir -p "$dir"
  if [ ! -f "$out/$name/$name.sv" ]; then r="FAILED: $name was not generated"
  elif ! sed -E "$expr" "$out/$name/$name.sv" >"$dir/$name.sv" 2>"$dir/sed.log"; then
    r="FAILED: sed: $(head -1 "$dir/sed.log")"
  elif cmp -s "$out/$name/$name.sv" "$dir/$name.sv"; then
    r="FAILED: the edit no longer changes $name.sv"
  elif ! for p in "$out/$name/${name}"_*.sv; do [ ! -f "$p" ] || cp "$p" "$dir/" || exit 1; done; then
    r="FAILED: cannot copy the part modules of $name"  # a composite's (gen/parts.h)
  elif ! grep -qE "\bp_$group(_[A-Za-z0-9_]*)?: assert" "$dir/$name.sv"; then
    r="FAILED: $name.sv has no p_$group assertion"
  elif [ "${n_run[$j]}" = 0 ]; then
    r="applies (not run: outside the sample; make formal-full runs it)"
  elif ! prepare "$dir" "$name" "p_$group"; then
    r="FAILED: yosys: $(grep -m1 -i error "$dir/yosys.log")"
  elif smt "$dir/bmc.log" "$dir/bmc.vcd" -t "$d" "$dir/$name.smt2"; then
    r="NOT CAUGHT: p_$group holds to depth $d on the edited RTL"
  elif grep -qE "Assert failed in [^:]*: p_$group(_|\$)" "$dir/bmc.log"; then
    r="caught: $(why "$dir/bmc.log" "$dir/$name.sv"); trace $dir/bmc.vcd"
  else r="FAILED: no counterexample ($(tail -1 "$dir/bmc.log"))"; fi
  times >"$dir/times"
  echo "$r [$(( $(date +%s) - t0 )) s wall, $(cpu "$dir/times") s cpu]" >"$out/res.n$j"
}

# Up to $jobs runs at a time; configurations first (controls read their RTL).
throttle() { while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done; runs_done; }
runs_done() { progress_step "$(find "$out" -maxdepth 1 -name 'res.*' | wc -l)"; }
progress_start $((n + m)) "configurations and controls"
for ((i=0; i<n; i++)); do throttle; run_config "$i" & done
wait; runs_done
for ((j=0; j<m; j++)); do throttle; run_control "$j" & done
wait; runs_done; progress_end

fail=0 total=0
for f in "$out"/res.*; do
  c=$(grep -o '[0-9]* s cpu' "$f" | grep -o '^[0-9]*'); total=$((total + ${c:-0}))
done
for ((i=0; i<n; i++)); do
  r=$(cat "$out/res.c$i" 2>/dev/null || echo "FAILED: no result")
  printf 'formal: %-6s %-14s %-7s %s\n' "${c_unit[$i]}" "${c_name[$i]}" "${c_mode[$i]}" "$r"
  [[ $r == proved* || $r == bounded* ]] || fail=1
done
for ((j=0; j<m; j++)); do
  r=$(cat "$out/res.n$j" 2>/dev/null || echo "FAILED: no result")
  printf 'formal: control %-14s %-6s %s\n' "${n_name[$j]}" "${n_group[$j]}" "$r"
  [[ $r == caught* || $r == applies* ]] || fail=1
done
# Every property group of every unit has a negative control.
if [ -n "$controls" ]; then
  for ((i=0; i<n; i++)); do
    sv="$out/${c_name[$i]}/${c_name[$i]}.sv"; [ -f "$sv" ] || continue
    for g in $(grep -oE '\bp_[a-z]+(_[A-Za-z0-9_]*)?: assert' "$sv" | sed -E 's/^p_([a-z]+).*/\1/' | sort -u); do
      ok=0
      for ((j=0; j<m; j++)); do
        [ "${n_group[$j]}" = "$g" ] && [ "${unit_of[${n_name[$j]}]}" = "${c_unit[$i]}" ] && ok=1
      done
      [ $ok -eq 1 ] || { echo "formal: FAILED: group p_$g of unit ${c_unit[$i]} has no negative control"; fail=1; }
    done
  done
fi
ran=0; for ((j=0; j<m; j++)); do [ "${n_run[$j]}" = 1 ] && ran=$((ran+1)); done
echo "formal: $n configurations, $m controls ($ran run), $(( $(date +%s) - t_start )) s wall, $total s cpu; $([ $fail -eq 0 ] && echo PASS || echo FAIL)"
exit $fail
