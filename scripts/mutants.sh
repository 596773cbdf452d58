#!/usr/bin/env bash
# Bench qualification: every known-bug variant of the RTL (cohgen --mutant K)
# must be caught by the lockstep bench.   scripts/mutants.sh OUT_DIR
set -uo pipefail
out=$1
B=${B:-build}
n=$("$B/bin/cohgen" rec --help | sed -n 's/.*--mutant K.*(1\.\.\([0-9]*\)).*/\1/p')
[ -n "$n" ] || { echo "mutants: cannot read the mutant count from cohgen --help"; exit 1; }
mkdir -p "$out"
kill() {
  local k=$1
  scripts/rec-config.sh "$out" "m$k" --config fpga --mutant "$k" >"$out/m$k.build.log" 2>&1 || { echo "build"; return; }
  if "$out/m$k/tb_rec" --config "m$k" --seed 1 --cycles 200000 --fail-prefix "$out/m$k/fail" >"$out/m$k.log" 2>&1; then
    echo "survived"
  else
    # the failure must leave a waveform and a stimulus that replays the mismatch
    [ -s "$out/m$k/fail.vcd" ] && [ -s "$out/m$k/fail.stim" ] || { echo "no waveform or stimulus"; return; }
    "$out/m$k/tb_rec" --config "m$k" --replay "$out/m$k/fail.stim" --fail-prefix "$out/m$k/replay" \
      >"$out/m$k.replay.log" 2>&1 && { echo "replay did not reproduce the mismatch"; return; }
    grep -q MISMATCH "$out/m$k.replay.log" || { echo "replay did not reproduce the mismatch"; return; }
    grep -m1 MISMATCH "$out/m$k.log" || echo "killed"
  fi
}
export -f kill; export out B
killed=0 survived=0
for k in $(seq 1 "$n"); do echo "$k"; done | xargs -P "${JOBS:-2}" -I{} bash -c 'r=$(kill {}); echo "$r" >"$out/m{}.result"'
for k in $(seq 1 "$n"); do
  r=$(cat "$out/m$k.result")
  case "$r" in
    MISMATCH*|killed) echo "mutants: mutant $k killed: $r"; killed=$((killed+1)) ;;
    *) echo "mutants: mutant $k NOT killed ($r)"; survived=$((survived+1)) ;;
  esac
done
echo "mutants: $killed passed, $survived failed (kill rate $killed/$n)"
[ "$survived" -eq 0 ]
