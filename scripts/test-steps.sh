#!/usr/bin/env bash
# Runs the steps of make test, JOBS at a time, each a make target (its output
# in OUT/<step>.log, a STEP's printed when it ends), then each step's time,
# then the FINAL steps' output. The last line is the Criterion summary,
# which CI reads.
#   scripts/test-steps.sh OUT JOBS [--build "TARGET..."] STEP... [++ STEP...] -- FINAL...
# With --build, the build (make -jJOBS TARGET...) is the first step, and
# the steps after '++' and the FINAL steps need it: the ones before '++'
# (which need only what is built already) run beside it, the others wait for
# it and fail unrun if it failed. Without --build every step may start at
# once. The queue: the build, the STEPs before '++', the FINAL steps (the
# longest), the STEPs after '++'.
set -uo pipefail
out=$1 jobs=$2; shift 2
build=
if [ "${1:-}" = --build ]; then build=$2; shift 2; fi
early=() late=() fin=()
while [ $# -gt 0 ] && [ "$1" != -- ] && [ "$1" != ++ ]; do early+=("$1"); shift; done
if [ "${1:-}" = ++ ]; then
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do late+=("$1"); shift; done
fi
[ $# -gt 0 ] && shift
fin=("$@")
mkdir -p "$out"
rm -f "$out"/*.rc "$out"/*.time "$out"/*.cpu "$out"/*.log "$out"/*.report
one() {
  local s=$1 t0 t1 rc
  if [ "${2:-}" = after-build ] && [ -n "$build" ]; then
    # the build's exit status is written last: wait for it
    while [ ! -f "$out/build.rc" ]; do sleep 1; done
  fi
  t0=$(date +%s.%N)
  if [ "${2:-}" = after-build ] && [ -n "$build" ] && [ "$(cat "$out/build.rc")" != 0 ]; then
    echo "not run: the build failed (see $out/build.log)" >"$out/$s.log"; rc=1
  elif [ "$s" = build ]; then
    # shellcheck disable=SC2086
    make --no-print-directory -j"$jobs" $build >"$out/$s.log" 2>&1; rc=$?
  else
    make --no-print-directory "$s" >"$out/$s.log" 2>&1; rc=$?
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f\n", b-a}' >"$out/$s.time"
  # CPU seconds of the step's processes (user + system): the shell's
  # children times (a redirection, not a pipe: a subshell has its own)
  times >"$out/$s.cpu"
  awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                 printf "%.1f\n", t }' "$out/$s.cpu" >"$out/$s.cpu.new" && mv "$out/$s.cpu.new" "$out/$s.cpu"
  { echo "==== $s (exit $rc, $(cat "$out/$s.time") s)"; cat "$out/$s.log"; } >"$out/$s.report"
  echo "$rc" >"$out/$s.rc"
  case "${3:-}" in quiet) ;; *) cat "$out/$s.report" ;; esac
}
export -f one; export out build jobs
T0=$(date +%s)
all=()
[ -n "$build" ] && all+=(build)
all+=("${early[@]}" "${fin[@]}" "${late[@]}")
{ [ -n "$build" ] && echo "build first"
  for s in "${early[@]}"; do echo "$s first"; done
  for s in "${fin[@]}"; do echo "$s after-build quiet"; done
  for s in "${late[@]}"; do echo "$s after-build"; done
} | xargs -P "$jobs" -L1 bash -c 'one "$@"' one
failed=0
echo
echo "==== step times (wall clock, $jobs in parallel; CPU seconds)"
for s in "${all[@]}"; do
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
