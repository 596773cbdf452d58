# shellcheck shell=bash
# shellcheck disable=SC2154  # work, cohmodel and the helpers: scripts/example-check.sh
# STC's checks of the library examples, sourced by scripts/example-check.sh
# (make examples), which calls check_<unit> for an example whose trace names
# cohmodel <unit>.
#   stc-system (examples/stc_system.c): the system's output and event log
#   (NAME.trace.log) as cohmodel's, and the example's checker verdict (after
#   '# checker') equals cohmodel stc-check's on that log (PASS).
check_stc_system() {
  local name=$1 opts=$2 copts n_ldv
  # shellcheck disable=SC2086
  "$cohmodel" stc-system $opts --log "$work/$name.reflog" < "$work/$name.trace" > "$work/$name.ref" ||
    verdict $? "cohmodel stc-system $opts" "$work/$name.trace"
  sed '/^# checker/,$d' "$work/$name.out" > "$work/$name.sys"
  same "$work/$name.sys" "$work/$name.ref" "$name: system output differs from cohmodel stc-system $opts"
  grep -v '^#' "$work/$name.trace.log" > "$work/$name.log" || true
  same "$work/$name.log" "$work/$name.reflog" "$name: event log differs from cohmodel stc-system --log"
  copts=$(sed -n '1s/^# cohmodel stc-check//p' "$work/$name.trace.log")
  # shellcheck disable=SC2086
  "$cohmodel" stc-check $copts < "$work/$name.trace.log" > "$work/$name.refchk" ||
    verdict $? "cohmodel stc-check$copts" "$work/$name.trace.log"
  sed '1,/^# checker/d' "$work/$name.out" > "$work/$name.chk"
  same "$work/$name.chk" "$work/$name.refchk" "$name: checker verdict differs from cohmodel stc-check$copts"
  grep -qx 'RESULT PASS' "$work/$name.chk" || fail "$name: the checker did not pass the run"
  n_ldv=$(some ' LDV ' "$work/$name.log" "$name: the run loaded nothing")
  echo "$(wc -l < "$work/$name.log") log events ($n_ldv loads), output and log identical to" \
    "cohmodel stc-system $opts; verdict identical to cohmodel stc-check$copts"
}
