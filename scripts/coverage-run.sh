#!/usr/bin/env bash
# make coverage's runs (mk/coverage.mk): make test's stimulus of the measured
# modules, through the coverage benches and Criterion binary of CB:
#   the Criterion tests of every family (as make test runs them, two at a
#   time), from CB/run, a tree of links to the worktree's top level whose
#   ./tb_<family> are the coverage benches and whose build/ links to the
#   real one's entries (the tests' scratch folders build/t_* are its own);
#   the Icarus replay step's bench run of each measured configuration
#   (scripts/iverilog-replay.sh: seed 5, IVL_CYCLES, 1,500 in make test).
# Every process writes its counters to CB/data/<module>/<pid>.dat at exit
# (tb/cov_hook.h). The Criterion summary is printed; a failing test fails
# the run (its stimulus would be cut short).
#   scripts/coverage-run.sh CB MODULE...
set -uo pipefail
cb=$1; shift
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
B=${B:-build}
cbabs=$(cd "$cb" && pwd)
data=$cbabs/data run=$cbabs/run
rm -rf "$data" "$run"
mkdir -p "$data" "$run/build"
for e in *; do
  case "$e" in "$B"|tb_*) continue ;; esac
  ln -s "$top/$e" "$run/$e"
done
for e in "$B"/*; do
  b=$(basename "$e")
  case "$b" in t_*|cov|test_all) continue ;; esac
  [ "$(cd "$e" 2>/dev/null && pwd)" = "$cbabs" ] && continue
  ln -s "$top/$e" "$run/build/$b"
done
for t in "$cbabs"/tb_*; do ln -s "$t" "$run/$(basename "$t")"; done
export COHKIT_COV_DIR=$data
fail=0
t0=$(date +%s)
( cd "$run" && "$cbabs/test_all" --color=never --jobs "${TEST_JOBS:-2}" ) >"$cbabs/criterion.log" 2>&1 || fail=1
echo "coverage: Criterion tests: $(grep -E '^\[====\] Synthesis' "$cbabs/criterion.log" | tail -1) ($(( $(date +%s) - t0 )) s)"
[ $fail -eq 0 ] || { grep -E 'FAIL|CRASH|Assertion' "$cbabs/criterion.log" | head -20; echo "coverage: the Criterion tests failed ($cbabs/criterion.log)"; }
t0=$(date +%s)
CYCLES=${IVL_CYCLES:-1500}
want=" $* "
while read -r unit family m p; do
  [[ "$want" == *" $m "* ]] || continue
  "$run/tb_$family" --unit "$unit" --config "$p" --seed 5 --cycles "$CYCLES" >"$cbabs/replay.$m.log" 2>&1 ||
    { echo "coverage: ./tb_$family --unit $unit --config $p --seed 5 --cycles $CYCLES failed"; fail=1; }
done < <("$B/bin/cohgen" --list=configs)
echo "coverage: replay-step bench runs, $CYCLES cycles each ($(( $(date +%s) - t0 )) s)"
exit $fail
