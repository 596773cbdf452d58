#!/usr/bin/env bash
# Runs a task list: a file of shell commands, one a line (task i is line i),
# each run from the current folder. On this machine (SCHED=local, the
# default), JOBS at a time (default: nproc); on a Slurm cluster
# (SCHED=slurm), as one job array of as many tasks, submitted with sbatch
# and waited for (docs/cluster.md). OUT, and the current folder, must then
# be on a filesystem every node sees.
#   scripts/jobs.sh LIST OUT           run every task; exit 1 if one failed
#   scripts/jobs.sh --task LIST OUT [I]  run task I (default: the Slurm array
#                                      task, $SLURM_ARRAY_TASK_ID)
# A task runs under bash -o pipefail. Task i leaves OUT/task-<i>.out, .err (its standard output and error) and
# .rc (its exit status, written last). Then OUT/report.txt, also printed:
#   jobs: N tasks, F failed
#   jobs: task I failed (exit S): COMMAND     (each failed task, in order)
# and, printed only, the last lines of each failed task's standard error and
# where the outputs are. Progress while waiting goes to standard error
# (scripts/progress.sh: tasks done of the total; one updating line on a
# terminal, otherwise a line every PROGRESS_SECONDS seconds, default 30, when
# a task has ended since the last one).
# Slurm options (environment): SLURM_PARTITION, SLURM_TIME (a task's time
# limit, sbatch --time), SLURM_ACCOUNT, SLURM_MAX (tasks running at once,
# --array=1-N%MAX), SLURM_EXTRA (more sbatch options, split at spaces),
# JOBS_NAME (the job's name, default cohkit). Each array task's own Slurm log
# is OUT/slurm-<i>.log.
# Exit status: 0 every task exited 0; 1 otherwise (or sbatch failed); 2 bad
# input (one line naming the value).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/progress.sh"
self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
bad() { echo "jobs: $*" >&2; exit 2; }

# ---- one task: what a local worker or a Slurm array task runs
if [ "${1:-}" = --task ]; then
  [ $# -ge 3 ] || bad "--task needs LIST OUT [I]"
  list=$2 out=$3 i=${4:-${SLURM_ARRAY_TASK_ID:-}}
  [[ "$i" =~ ^[1-9][0-9]*$ ]] || bad "--task: task '$i' is not a positive number"
  cmd=$(sed -n "${i}p" "$list")
  [ -n "$cmd" ] || bad "--task: '$list' has no line $i"
  rm -f "$out/task-$i.rc"
  bash -o pipefail -c "$cmd" >"$out/task-$i.out" 2>"$out/task-$i.err" </dev/null
  rc=$?
  echo "$rc" >"$out/task-$i.rc.tmp" && mv "$out/task-$i.rc.tmp" "$out/task-$i.rc"
  # under Slurm the array task keeps the task's status (sacct); a local
  # worker exits 0 (xargs would stop at a status of 255)
  [ $# -lt 4 ] && exit "$rc"
  exit 0
fi

[ $# -eq 2 ] || bad "usage: scripts/jobs.sh LIST OUT (or --task LIST OUT [I])"
list=$1 out=$2
sched=${SCHED:-local}
case "$sched" in local | slurm) ;; *) bad "SCHED: '$sched' is not local or slurm" ;; esac
[ -f "$list" ] || bad "task list '$list' does not exist"
n=$(wc -l <"$list")
[ -n "$(tail -c1 "$list")" ] && n=$((n + 1))  # a last line without '\n'
[ "$n" -gt 0 ] || bad "task list '$list' is empty"
e=$(grep -n -m1 '^[[:space:]]*$' "$list" | cut -d: -f1)
[ -z "$e" ] || bad "task list '$list': line $e is empty (task i is line i)"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || bad "JOBS: '$jobs' is not a positive number"
[[ "${PROGRESS_SECONDS:-30}" =~ ^[0-9]+$ ]] || bad "PROGRESS_SECONDS: '$PROGRESS_SECONDS' is not a number of seconds"
if [ "$sched" = slurm ]; then
  max=${SLURM_MAX:-}
  [ -z "$max" ] || [[ "$max" =~ ^[1-9][0-9]*$ ]] || bad "SLURM_MAX: '$max' is not a positive number"
  command -v sbatch >/dev/null || bad "SCHED: 'slurm' but sbatch is not installed (scripts/install-deps.sh --slurm)"
fi
mkdir -p "$out" || bad "OUT: '$out' cannot be made"
list=$(cd "$(dirname "$list")" && pwd)/$(basename "$list")
out=$(cd "$out" && pwd)
rm -f "$out"/task-*.out "$out"/task-*.err "$out"/task-*.rc "$out"/task-*.rc.tmp "$out"/slurm-*.log "$out/report.txt"

# ---- start every task in the background
jobid= pid=
if [ "$sched" = local ]; then
  seq 1 "$n" | xargs -P "$jobs" -I{} "$self" --task "$list" "$out" {} &
  pid=$!
else
  args=(--parsable --wait --array="1-$n${max:+%$max}" --job-name="${JOBS_NAME:-cohkit}" --chdir="$PWD"
        --output="$out/slurm-%a.log" --export=ALL)
  [ -z "${SLURM_PARTITION:-}" ] || args+=(--partition="$SLURM_PARTITION")
  [ -z "${SLURM_TIME:-}" ] || args+=(--time="$SLURM_TIME")
  [ -z "${SLURM_ACCOUNT:-}" ] || args+=(--account="$SLURM_ACCOUNT")
  read -ra extra <<<"${SLURM_EXTRA:-}"
  sbatch "${args[@]}" "${extra[@]}" --wrap="exec $(printf '%q --task %q %q' "$self" "$list" "$out")" \
    >"$out/sbatch.out" 2>"$out/sbatch.err" &
  pid=$!
fi
stop() {
  [ -z "$jobid" ] || scancel "$jobid" 2>/dev/null
  kill "$pid" 2>/dev/null
  echo "jobs: interrupted" >&2
  exit 130
}
trap stop INT TERM HUP

# ---- progress until they are all done: tasks done of the total, elapsed,
# time left at the rate so far (scripts/progress.sh), the Slurm job's number
ended() { progress_step "$(find "$out" -maxdepth 1 -name 'task-*.rc' | wc -l)"; }
progress_start "$n" tasks
while kill -0 "$pid" 2>/dev/null; do
  sleep 1
  [ -n "$jobid" ] || [ "$sched" = local ] || jobid=$(head -1 "$out/sbatch.out" 2>/dev/null | cut -d';' -f1)
  progress_note=${jobid:+Slurm job $jobid}
  ended
done
wait "$pid"
src=$?
ended
progress_end
if [ "$sched" = slurm ] && [ -z "$(head -1 "$out/sbatch.out" 2>/dev/null)" ]; then
  echo "jobs: sbatch failed (exit $src): $(head -1 "$out/sbatch.err")"
  exit 1
fi

# ---- the report
failed=() why=()
for ((i = 1; i <= n; i++)); do
  rc=$(cat "$out/task-$i.rc" 2>/dev/null)
  if [ -z "$rc" ]; then failed+=("$i"); why+=("no exit status: never ran or was killed, see slurm-$i.log")
  elif [ "$rc" != 0 ]; then failed+=("$i"); why+=("exit $rc")
  fi
done
{
  echo "jobs: $n task$([ "$n" -eq 1 ] || echo s), ${#failed[@]} failed"
  for k in "${!failed[@]}"; do
    echo "jobs: task ${failed[$k]} failed (${why[$k]}): $(sed -n "${failed[$k]}p" "$list")"
  done
} >"$out/report.txt"
cat "$out/report.txt"
[ ${#failed[@]} -eq 0 ] && exit 0
for i in "${failed[@]}"; do
  [ -s "$out/task-$i.err" ] && { echo "jobs: task $i, last lines of its standard error:"; tail -3 "$out/task-$i.err" | sed 's/^/    /'; }
done
echo "jobs: outputs in $out/task-<i>.out, .err"
exit 1
