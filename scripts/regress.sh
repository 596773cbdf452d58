#!/usr/bin/env bash
# make regress: long random lockstep runs of every committed configuration
# of every unit (20 M cycles x 4 seeds), after the REGRESS_STEPS.
set -uo pipefail
B=${B:-build}
CYCLES=${REGRESS_CYCLES:-20000000}
fail=0
while read -r unit family module preset; do
  for s in 11 12 13 14; do
    if ./tb_"$family" --unit "$unit" --config "$preset" --seed "$s" --cycles "$CYCLES" | tail -1 | grep -q PASS; then
      echo "regress: $unit $preset seed $s PASS"
    else
      echo "regress: $unit $preset seed $s FAILED: ./tb_$family --unit $unit --config $preset --seed $s --cycles $CYCLES"; fail=1
    fi
  done
done < <("$B/bin/cohgen" --list=configs)
exit $fail
