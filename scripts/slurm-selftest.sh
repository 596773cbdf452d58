#!/usr/bin/env bash
# make slurm-selftest: scripts/jobs.sh against a real Slurm. Starts a
# one-node cluster on this machine (munged, slurmctld, slurmd, every file of
# theirs under DIR, on free ports, so it touches no system-wide Slurm),
# waits for the node, runs a task list of six (model runs, the parser
# self-test of scripts/mutate.py, and one that fails on purpose: a bad
# option, exit 2) once with SCHED=local and once with SCHED=slurm, checks
# that the Slurm run's report names the failed task with its command and
# equals the local one, and that every task's output and status do too,
# then stops the daemons (also on failure or interruption).
#   scripts/slurm-selftest.sh DIR      (make slurm-selftest: build/slurm)
#   scripts/slurm-selftest.sh DIR -- COMMAND...   runs COMMAND on that cluster
#       instead (SLURM_CONF set), say SCHED=slurm make mutate; its exit status
# Needs root (SlurmUser=root) and scripts/install-deps.sh --slurm.
set -uo pipefail
cd "$(dirname "$0")/.."
PATH=$PATH:/usr/sbin:/sbin  # the daemons
[ $# -eq 1 ] || { [ $# -ge 3 ] && [ "$2" = -- ]; } ||
  { echo "slurm-selftest: usage: scripts/slurm-selftest.sh DIR [-- COMMAND...]" >&2; exit 2; }
B=${B:-build}
mkdir -p "$1" && D=$(cd "$1" && pwd) || { echo "slurm-selftest: DIR: '$1' cannot be made" >&2; exit 2; }
shift
[ $# -gt 0 ] && shift
[ "$(id -u)" -eq 0 ] || { echo "slurm-selftest: needs root (the daemons run as SlurmUser=root)" >&2; exit 1; }
for t in munged mungekey slurmctld slurmd sbatch sinfo scancel; do
  command -v "$t" >/dev/null || { echo "slurm-selftest: $t not found (scripts/install-deps.sh --slurm)" >&2; exit 1; }
done
T0=$SECONDS
fail() { echo "slurm-selftest: FAILED: $*"; exit 1; }

# ---- every file under DIR (daemons an earlier run left, killed with it, stopped first)
for p in slurmd slurmctld munged; do
  pid=$(cat "$D/run/$p.pid" 2>/dev/null)
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$p" ] && kill "$pid" && sleep 1
done
rm -rf "$D/etc" "$D/run" "$D/state" "$D/spool" "$D/log" "$D/local" "$D/slurm"
mkdir -p "$D/etc" "$D/run" "$D/state" "$D/spool" "$D/log"
chmod 755 "$D/run"
# two free TCP ports (another cluster of this kind may be running here)
read -r pctl pd < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
stop() {
  local p
  [ -n "${jobs_started:-}" ] && scancel --quiet --name=slurm-selftest 2>/dev/null
  for p in slurmd slurmctld munged; do
    [ -s "$D/run/$p.pid" ] && kill "$(cat "$D/run/$p.pid" 2>/dev/null)" 2>/dev/null
  done
  for p in slurmd slurmctld munged; do  # a few seconds for each to exit
    for _ in $(seq 50); do
      [ -s "$D/run/$p.pid" ] && kill -0 "$(cat "$D/run/$p.pid" 2>/dev/null)" 2>/dev/null || break
      sleep 0.1
    done
  done
}
trap stop EXIT
trap 'exit 130' INT TERM HUP

# ---- munge: its own key, socket and logs
mungekey --create --keyfile="$D/etc/munge.key" --force >/dev/null 2>&1 ||
  dd if=/dev/urandom of="$D/etc/munge.key" bs=1024 count=1 status=none
chmod 400 "$D/etc/munge.key"
munged --force --key-file="$D/etc/munge.key" --socket="$D/run/munge.sock" --pid-file="$D/run/munged.pid" \
  --log-file="$D/log/munged.log" --seed-file="$D/state/munge.seed" ||
  fail "munged did not start (see $D/log/munged.log)"

# ---- slurm.conf: one node, no cgroups, no accounting
cpus=$(nproc)
cat >"$D/etc/slurm.conf" <<EOF
# Written by scripts/slurm-selftest.sh: a one-node cluster on this machine.
ClusterName=selftest
SlurmctldHost=localhost
SlurmctldPort=$pctl
SlurmdPort=$pd
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/run/munge.sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
MinJobAge=30
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=100 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$D/etc/slurm.conf
slurmctld -i -f "$SLURM_CONF" || fail "slurmctld did not start (see $D/log/slurmctld.log)"
slurmd -f "$SLURM_CONF" -N localhost || fail "slurmd did not start (see $D/log/slurmd.log)"
ok=0
for _ in $(seq 120); do
  [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ] && { ok=1; break; }
  sleep 0.5
done
[ $ok -eq 1 ] || fail "the node is not idle after 60 s: $(sinfo -h -o '%n %t' 2>&1 | head -1) (logs in $D/log)"
echo "slurm-selftest: cluster up in $((SECONDS - T0)) s ($cpus CPUs, ports $pctl and $pd)"
if [ $# -gt 0 ]; then
  jobs_started=1
  "$@"
  exit
fi

# ---- the task list: three model runs on committed traces, the parser
# self-test, a bad option (fails on purpose, task 5), a generator report
units=$("$B/bin/cohgen" --list=units | cut -d' ' -f1)
list=$D/tasks.txt
: >"$list"
for tr in tb/*/traces/*.trace; do
  u=$(basename "$tr"); u=${u%%.*}
  grep -qx "$u" <<<"$units" && "$B/bin/cohmodel" "$u" <"$tr" >/dev/null 2>&1 || continue
  echo "$B/bin/cohmodel $u < $tr" >>"$list"
  [ "$(wc -l <"$list")" -eq 3 ] && break
done
[ "$(wc -l <"$list")" -eq 3 ] || fail "fewer than three committed traces the model accepts"
u=$(head -1 <<<"$units")
{ echo "scripts/mutate.py --self-test"
  echo "$B/bin/cohmodel $u --no-such-option < /dev/null"
  echo "$B/bin/cohgen $u --report"; } >>"$list"

SCHED=local scripts/jobs.sh "$list" "$D/local" >"$D/local.log" 2>&1
lrc=$?
jobs_started=1
PROGRESS_SECONDS=5 JOBS_NAME=slurm-selftest SLURM_TIME=2 SCHED=slurm scripts/jobs.sh "$list" "$D/slurm" >"$D/slurm.log" 2>&1
src=$?
sed 's/^/  /' "$D/slurm.log"
[ $lrc -eq 1 ] || fail "SCHED=local exited $lrc, not 1 (one task fails): $D/local.log"
[ $src -eq 1 ] || fail "SCHED=slurm exited $src, not 1 (one task fails): $D/slurm.log"
want="jobs: task 5 failed (exit 2): $(sed -n 5p "$list")"
grep -qxF "$want" "$D/slurm/report.txt" || fail "the report does not name task 5 with its command: $D/slurm/report.txt"
head -1 "$D/slurm/report.txt" | grep -qx 'jobs: 6 tasks, 1 failed' || fail "the report does not count 6 tasks, 1 failed"
cmp -s "$D/local/report.txt" "$D/slurm/report.txt" || fail "the reports of SCHED=local and SCHED=slurm differ"
for i in 1 2 3 4 5 6; do
  for x in out rc; do
    cmp -s "$D/local/task-$i.$x" "$D/slurm/task-$i.$x" || fail "task $i: its .$x differs between SCHED=local and SCHED=slurm"
  done
  [ -s "$D/slurm/slurm-$i.log" ] && fail "task $i: Slurm wrote to its log: $D/slurm/slurm-$i.log"
  [ -f "$D/slurm/slurm-$i.log" ] || fail "task $i: no Slurm log (did it run under Slurm?)"
done
echo "slurm-selftest: PASS: 6 tasks as a Slurm job array, the report and outputs as SCHED=local gives ($((SECONDS - T0)) s)"
