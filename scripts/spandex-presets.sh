#!/usr/bin/env bash
# The paper's configurations (Table V, spec 12) compared on the same
# programs: each pattern of `cohmodel spandex-prog` generated once on four
# devices (0-1 the CPUs, 2-3 the GPUs) and run by `cohmodel spandex-system`
# under each named preset (smg, smd, sdg, sdd, and hmg_line, hmd_line:
# the line baseline standing in for the hierarchical HMG and HMD), every
# log judged by
# `cohmodel spandex-check --drf --stats` (PASS required). Prints a Markdown
# table per preset and program: messages / bytes per request type (the
# paper's categories, Probe = Inv + RvkO and the RspRvkO of an RvkO), the
# total and the Nacks (at nack limit 1 each Nack message brings one
# replacement request), then the completion time in cycles of the same
# program on the cycle-level system (`./tb_spandex --system`, its default
# latencies, the shells; its checker must say PASS). docs/spandex.md "The
# paper's configurations".
#   scripts/spandex-presets.sh [--ops N] [--seed S] [--sched fifo|random] [--no-cycles]
# (defaults 400 operation lines, seed 1, fifo). Run from the repository
# root after make tools and make verilate (tb_spandex); --no-cycles leaves
# the cycles column out and needs only make tools (make results).
set -euo pipefail
ops=400 seed=1 sched=fifo cycles=1
while [ $# -gt 0 ]; do
  [ "$1" = --no-cycles ] && { cycles=0; shift; continue; }
  case $1 in
    --ops) ops=$2 ;; --seed) seed=$2 ;; --sched) sched=$2 ;;
    *) echo "spandex-presets: unknown option '$1' (--ops N --seed S --sched fifo|random --no-cycles)" >&2; exit 2 ;;
  esac
  shift 2
done
m=build/bin/cohmodel
[ -x $m ] || { echo "spandex-presets: $m missing (make tools)" >&2; exit 2; }
[ $cycles -eq 0 ] || [ -x ./tb_spandex ] || { echo "spandex-presets: ./tb_spandex missing (make verilate)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

types="ReqV ReqS ReqWT ReqO ReqWT+data ReqO+data ReqWB Probe total"
ccol=(" cycles |" "---:|"); [ $cycles -eq 1 ] || ccol=("" "")
echo "| program | preset |$(for t in $types; do printf ' %s |' "$t"; done) Nacks |${ccol[0]}"
echo "|---|---|$(for t in $types; do printf -- '---:|'; done)---:|${ccol[1]}"
for pat in false-sharing flag read-mostly lock barrier counter mixed; do
  # one program text for every preset (the devices only name the kinds)
  $m spandex-prog --config smg --pattern $pat --seed $seed --ops $ops >"$work/p.txt"
  for p in smg smd sdg sdd hmg_line hmd_line; do
    $m spandex-system --config $p --sched $sched --seed $seed <"$work/p.txt" >"$work/l.txt"
    $m spandex-check --config $p --sched $sched --stats --drf --program "$work/p.txt" <"$work/l.txt" >"$work/s.txt" ||
      { echo "spandex-presets: $pat on $p: $(tail -1 "$work/s.txt")" >&2; exit 1; }
    row="| $pat | $p |"
    # every type's cell in one pass
    row+=$(awk -v types="$types" '$1 == "#" && $2 == "traffic" { v[$3] = $4 " / " $5 }
      END { n = split(types, t, " "); for (i = 1; i <= n; i++) printf " %s |", v[t[i]] }' "$work/s.txt")
    row+=" $(awk '$1 == "S" && $5 == "Nack"' "$work/l.txt" | wc -l) |"
    [ $cycles -eq 1 ] || { echo "$row"; continue; }
    devs=$(case $p in
      smg | hmg_line) echo mesi,mesi,gpu,gpu ;; smd | hmd_line) echo mesi,mesi,denovo,denovo ;;
      sdg) echo denovo,denovo,gpu,gpu ;; sdd) echo denovo,denovo,denovo,denovo ;; esac)
    rmw=odata; [ $p = sdg ] && rmw=wtdata
    llc=default; case $p in *_line) llc=line ;; esac
    ./tb_spandex --system --program "$work/p.txt" --devs $devs --denovo-rmw $rmw --llc $llc --rtl none >"$work/c.txt" ||
      { echo "spandex-presets: $pat on $p: cycle-level: $(tail -2 "$work/c.txt")" >&2; exit 1; }
    row+=" $(sed -n 's/.*shell LLC: \([0-9]*\) cycles.*checker: PASS.*/\1/p' "$work/c.txt") |"
    echo "$row"
  done
done
