#!/usr/bin/env bash
# make regress: long random lockstep runs of every committed configuration
# of every unit (20 M cycles x 4 seeds), after the REGRESS_STEPS.
# With SCHED set (local or slurm, docs/cluster.md) the runs are a task list
# of scripts/jobs.sh, one task a configuration and seed, in $B/regress/;
# the same lines are printed from their outputs.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
B=${B:-build}
CYCLES=${REGRESS_CYCLES:-20000000}
SEEDS="11 12 13 14"
case "${SCHED:-}" in "" | local | slurm) ;; *) echo "regress: SCHED: '$SCHED' is not local or slurm" >&2; exit 2 ;; esac
fail=0
if [ -z "${SCHED:-}" ]; then
  k=0
  progress_start $(($("$B/bin/cohgen" --list=configs | wc -l) * $(wc -w <<<"$SEEDS"))) runs
  while read -r unit family module preset; do
    for s in $SEEDS; do
      if ./tb_"$family" --unit "$unit" --config "$preset" --seed "$s" --cycles "$CYCLES" | tail -1 | grep -q PASS; then
        echo "regress: $unit $preset seed $s PASS"
      else
        echo "regress: $unit $preset seed $s FAILED: ./tb_$family --unit $unit --config $preset --seed $s --cycles $CYCLES"; fail=1
      fi
      k=$((k + 1)); progress_step $k
    done
  done < <("$B/bin/cohgen" --list=configs)
  progress_end
  exit $fail
fi
out=$B/regress
mkdir -p "$out"
"$B/bin/cohgen" --list=configs | while read -r unit family module preset; do
  for s in $SEEDS; do echo "./tb_$family --unit $unit --config $preset --seed $s --cycles $CYCLES"; done
done >"$out/tasks.txt"
echo "regress: $(wc -l <"$out/tasks.txt") tasks (SCHED=$SCHED): $out/tasks.txt"
scripts/jobs.sh "$out/tasks.txt" "$out/tasks"
[ $? -le 1 ] || exit 2
# a run passes when it exits 0 with PASS on its last line
i=0
while read -r tb _ unit _ preset _ s _; do
  i=$((i + 1))
  if [ "$(cat "$out/tasks/task-$i.rc" 2>/dev/null)" = 0 ] && tail -1 "$out/tasks/task-$i.out" | grep -q PASS; then
    echo "regress: $unit $preset seed $s PASS"
  else
    echo "regress: $unit $preset seed $s FAILED: $(sed -n "${i}p" "$out/tasks.txt")"; fail=1
  fi
done <"$out/tasks.txt"
exit $fail
