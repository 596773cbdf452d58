#!/usr/bin/env bash
# Runs the steps of make test, JOBS at a time, the FINAL steps first (they
# are the longest), then each STEP in the order given (each step's output in
# OUT/<step>.log, a STEP's printed when it ends), then each step's time,
# then the FINAL steps' output. The last line is the Criterion summary,
# which CI reads.
#   scripts/test-steps.sh OUT JOBS STEP... -- FINAL...
set -uo pipefail
out=$1 jobs=$2; shift 2
par=() fin=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do par+=("$1"); shift; done
[ $# -gt 0 ] && shift
fin=("$@")
mkdir -p "$out"
rm -f "$out"/*.rc "$out"/*.time "$out"/*.cpu "$out"/*.log
one() {
  local s=$1 t0 t1 rc
  t0=$(date +%s.%N)
  make --no-print-directory "$s" >"$out/$s.log" 2>&1; rc=$?
  t1=$(date +%s.%N)
  echo "$rc" >"$out/$s.rc"
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f\n", b-a}' >"$out/$s.time"
  # CPU seconds of the step's processes (user + system): the shell's
  # children times (a redirection, not a pipe: a subshell has its own)
  times >"$out/$s.cpu"
  awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                 printf "%.1f\n", t }' "$out/$s.cpu" >"$out/$s.cpu.new" && mv "$out/$s.cpu.new" "$out/$s.cpu"
  { echo "==== $s (exit $rc, $(cat "$out/$s.time") s)"; cat "$out/$s.log"; } >"$out/$s.report"
  [ "${2:-}" = quiet ] || cat "$out/$s.report"
}
export -f one; export out
T0=$(date +%s)
{ for s in "${fin[@]}"; do echo "$s quiet"; done; for s in "${par[@]}"; do echo "$s"; done; } |
  xargs -P "$jobs" -L1 bash -c 'one "$@"' one
failed=0
echo
echo "==== step times (wall clock, $jobs in parallel; CPU seconds)"
for s in "${par[@]}" "${fin[@]}"; do
  rc=$(cat "$out/$s.rc" 2>/dev/null || echo 1)
  printf '  %-18s %8s s %8s CPU  %s\n' "$s" "$(cat "$out/$s.time" 2>/dev/null || echo -)" \
    "$(cat "$out/$s.cpu" 2>/dev/null || echo -)" \
    "$([ "$rc" = 0 ] && echo ok || echo "FAILED (see $out/$s.log)")"
  [ "$rc" = 0 ] || failed=1
done
echo "  total              $(( $(date +%s) - T0 )) s"
for s in "${fin[@]}"; do
  echo "==== $s"
  cat "$out/$s.log"
done
# the Criterion summary stays the last line
last=$(grep -h 'Synthesis: Tested' "$out"/*.log 2>/dev/null | tail -1)
[ -n "$last" ] && echo "$last"
exit $failed
