#!/usr/bin/env bash
# Traffic per request type (SYS8) of the named Spandex programs: each
# pattern of `cohmodel spandex-prog` (false sharing, flag producer/consumer,
# read-mostly sharing, counter atomics) on three device mixes (all GPU
# coherence, all DeNovo, half and half), run by `cohmodel spandex-system`
# under fifo on the word-granularity LLC and on the line baseline (`--gran
# line`: every device asks whole lines; rows marked "(line)"), counted by `cohmodel spandex-check --stats --drf` (which
# must say PASS). Prints a Markdown table: messages / bytes per request
# type, then the total. docs/spandex.md "Traffic of the named programs".
#   scripts/spandex-traffic.sh [--devs N] [--ops N] [--seed S] [--line B]
# (defaults 4 devices, 400 operation lines, seed 1, 64-byte lines). Run
# from the repository root after make tools.
set -euo pipefail
devs=4 ops=400 seed=1 line=64
while [ $# -gt 0 ]; do
  case $1 in
    --devs) devs=$2 ;; --ops) ops=$2 ;; --seed) seed=$2 ;; --line) line=$2 ;;
    *) echo "spandex-traffic: unknown option '$1' (--devs N --ops N --seed S --line B)" >&2; exit 2 ;;
  esac
  shift 2
done
m=build/bin/cohmodel
[ -x $m ] || { echo "spandex-traffic: $m missing (make tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The --dev options of a mix.
mix() {
  local d s=""
  for ((d = 0; d < devs; d++)); do
    case $1 in
      gpu) s+=" --dev $d:gpu" ;; denovo) s+=" --dev $d:denovo" ;;
      mixed) if ((d % 2)); then s+=" --dev $d:denovo"; else s+=" --dev $d:gpu"; fi ;;
    esac
  done
  echo "$s"
}

types="ReqV ReqWT ReqO ReqWT+data ReqO+data ReqWB Probe total"
echo "| program | devices |$(for t in $types; do printf ' %s |' "$t"; done)"
echo "|---|---|$(for t in $types; do printf -- '---:|'; done)"
for pat in false-sharing flag read-mostly counter; do
  for run in gpu denovo mixed gpu:line denovo:line mixed:line; do
    kind=${run%:line} gran=word
    if [ "$run" != "$kind" ]; then gran=line; fi
    opts="$(mix $kind) --line $line --gran $gran"
    $m spandex-prog $opts --pattern $pat --seed $seed --ops $ops >"$work/p.txt"
    $m spandex-system $opts --sched fifo <"$work/p.txt" >"$work/l.txt"
    $m spandex-check $opts --sched fifo --stats --drf --program "$work/p.txt" <"$work/l.txt" >"$work/s.txt" ||
      { echo "spandex-traffic: $pat on $kind: $(tail -1 "$work/s.txt")" >&2; exit 1; }
    tag=""
    if [ $gran = line ]; then tag=" (line)"; fi
    row="| $pat | $devs $kind$tag |"
    for t in $types; do
      row+=" $(awk -v t="$t" '$1 == "#" && $2 == "traffic" && $3 == t { print $4 " / " $5 }' "$work/s.txt") |"
    done
    echo "$row"
  done
done
