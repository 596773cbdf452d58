#!/usr/bin/env bash
# Seeded random system programs through each family's system model and its
# separate checker (make sysprog, part of make regress; make sysprog-sample,
# a make test step, runs a few of each).
#   scripts/sysprog.sh [--count N] [--controls N] [--first S] [--jobs J] OUT_DIR LIST...
# A LIST (tb/<family>/sysprog.txt) has one entry a line:
#   NAME  COUNT  COMMAND            a run that must pass (exit status 0)
#   NAME  !COUNT COMMAND            a control: a known-unsafe variant or an
#                                   injected fault, which the checker must
#                                   catch (exit status 1) in at least one
#                                   of its COUNT programs
# COMMAND is bash, run once a seed with $SEED the seed (first S, default 1,
# and the COUNT - 1 after it), $M the model tool (build/bin/cohmodel), $TB
# the directory of the tb_<family> benches (the checkout) and $W an empty
# directory of that run. '#' starts a comment line.
# --count N runs N programs of each entry that must pass instead of its
# COUNT, --controls N as many of each control.
# Every failing program is printed with the command that reproduces it (the
# seed substituted); one summary line an entry, then
# "sysprog: N programs, F failed, C controls caught of K". Exit 1 if a
# program failed or a control was not caught, 2 on a malformed list.
set -uo pipefail
. "$(dirname "$0")/progress.sh"
count= ccount= first=1 jobs=$(nproc 2>/dev/null || echo 2)
die() { echo "sysprog: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --count) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--count: '${2:-}' is not a positive integer"; count=$2; shift 2 ;;
    --controls) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--controls: '${2:-}' is not a positive integer"; ccount=$2; shift 2 ;;
    --first) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--first: '${2:-}' is not a seed"; first=$2; shift 2 ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs: '${2:-}' is not a positive integer"; jobs=$2; shift 2 ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
  esac
done
out=${1:-}; shift || true
[ -n "$out" ] && [ $# -gt 0 ] || die "usage: scripts/sysprog.sh [--count N] [--controls N] [--first S] [--jobs J] OUT_DIR LIST..."
B=${B:-build}
export M=$PWD/$B/bin/cohmodel TB=$PWD
[ -x "$M" ] || die "cannot run $M (make tools)"

# read every list first: a malformed line stops the run before anything runs
names=() counts=() ctls=() cmds=()
for f in "$@"; do
  [ -r "$f" ] || die "cannot read '$f'"
  n=0
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n+1))
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    [[ $line =~ ^([A-Za-z0-9_.+-]+)[[:space:]]+(!?)([1-9][0-9]*)[[:space:]]+(.+)$ ]] ||
      die "$f line $n: '$line' is not NAME COUNT COMMAND"
    for x in "${names[@]}"; do [ "$x" = "${BASH_REMATCH[1]}" ] && die "$f line $n: entry '$x' is named twice"; done
    names+=("${BASH_REMATCH[1]}"); ctls+=("${BASH_REMATCH[2]}")
    if [ -n "${BASH_REMATCH[2]}" ]; then counts+=("${ccount:-${BASH_REMATCH[3]}}")
    else counts+=("${count:-${BASH_REMATCH[3]}}"); fi
    cmds+=("${BASH_REMATCH[4]}")
  done <"$f"
done
[ ${#names[@]} -gt 0 ] || die "no entry in $*"
rm -rf "$out"; mkdir -p "$out"

# one program: prints "seed status"; its output stays in $out/NAME/SEED/
run_one() {  # name seed command
  local w="$out/$1/$2"
  mkdir -p "$w"
  SEED=$2 W=$w timeout 600 bash -o pipefail -c "$3" >"$w/out" 2>"$w/err" </dev/null
  echo "$2 $?"
}
export -f run_one; export out

total=0 failn=0 caught=0 nctl=0 bad=0
progress_start "$(IFS=+; echo $((${counts[*]})))" programs
for i in "${!names[@]}"; do
  name=${names[$i]} c=${counts[$i]} cmd=${cmds[$i]} t0=$(date +%s)
  res=$(seq "$first" $((first + c - 1)) | xargs -P "$jobs" -I{} bash -c 'run_one "$0" {} "$1"' "$name" "$cmd")
  pass=$(awk '$2 == 0' <<<"$res" | wc -l)
  fails=$(awk '$2 == 1' <<<"$res" | sort -n | awk '{print $1}')
  errs=$(awk '$2 != 0 && $2 != 1' <<<"$res" | sort -n)
  nf=$(grep -c . <<<"$fails")
  total=$((total + c)) secs=$(( $(date +%s) - t0 ))
  # a program that could not run (exit 2, a timeout, a crash) fails any entry
  while read -r s rc; do
    [ -n "${s:-}" ] || continue
    echo "sysprog: ERROR $name seed $s: exit $rc ($(head -c 200 "$out/$name/$s/err" | head -1)): SEED=$s W=\$(mktemp -d) M=$M TB=$TB bash -o pipefail -c '$cmd'"
    failn=$((failn+1)); bad=1
  done <<<"$errs"
  if [ -n "${ctls[$i]}" ]; then
    nctl=$((nctl+1))
    if [ "$nf" -gt 0 ]; then
      caught=$((caught+1))
      echo "sysprog: $name (control): caught in $nf of $c programs, seeds $first-$((first + c - 1)), first at seed $(head -1 <<<"$fails") [$secs s]"
    else
      echo "sysprog: FAIL $name (control): not caught in $c programs, seeds $first-$((first + c - 1)) [$secs s]"; bad=1
    fi
  else
    while read -r s; do
      [ -n "$s" ] || continue
      echo "sysprog: FAIL $name seed $s ($(grep -m1 -E 'VIOL|^E |FAIL|CHECK' "$out/$name/$s/out" | head -c 160)): SEED=$s W=\$(mktemp -d) M=$M TB=$TB bash -o pipefail -c '$cmd'"
      failn=$((failn+1)); bad=1
    done <<<"$fails"
    echo "sysprog: $name: $pass of $c programs passed, seeds $first-$((first + c - 1)) [$secs s]"
  fi
  progress_step "$total"
done
progress_end
echo "sysprog: $total programs, $failn failed, $caught controls caught of $nctl"
[ $bad -eq 0 ]
