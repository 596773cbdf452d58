#!/usr/bin/env bash
# Checks the library examples (make examples).
#   scripts/example-check.sh WORK COHMODEL SONAME BIN:shared|static ...
#     Runs each example as "BIN WORK/NAME.trace"; it writes its input as a
#     trace whose first line is "# cohmodel UNIT OPTIONS", and cohmodel
#     replays that trace. What must agree depends on UNIT (check_* below):
#     rec: INV lines and statistics, the run evicted and invalidated;
#     dualopt-de (a DualOpt GPU's decision engines): DECIDE lines, the GPU
#     check passed, an optimisation chosen; stc-system: the system's output
#     and event log (NAME.trace.log), and the example's checker verdict
#     equals cohmodel stc-check's on that log (PASS); halcone-system: access,
#     CHECK and invariant lines and the checker's summary (no violation).
#     A shared binary must need SONAME, a static one must not. Examples
#     built from the same source must print the same output.
#   scripts/example-check.sh --destdir ROOT PREFIX REALNAME "HEADERS"
#     Checks a DESTDIR installation: files under ROOT/PREFIX, .pc prefix.
set -euo pipefail
fail() { echo "examples: $*" >&2; exit 1; }

if [ "$1" = "--destdir" ]; then
  root=$2 prefix=$3 real=$4 headers=$5
  for f in lib/libcohkit.a "lib/$real" lib/libcohkit.so lib/pkgconfig/cohkit.pc; do
    [ -e "$root$prefix/$f" ] || fail "DESTDIR install lacks $prefix/$f"
  done
  for h in $headers; do
    [ -f "$root$prefix/include/cohkit/$h" ] || fail "DESTDIR install lacks include/cohkit/$h"
  done
  [ "$(readlink -f "$root$prefix/lib/libcohkit.so")" = "$(readlink -f "$root$prefix/lib/$real")" ] ||
    fail "libcohkit.so does not lead to $real"
  got=$(PKG_CONFIG_PATH="$root$prefix/lib/pkgconfig" pkg-config --variable=prefix cohkit)
  [ "$got" = "$prefix" ] || fail "cohkit.pc prefix is '$got', expected $prefix"
  exit 0
fi

# Checks one run of an example against cohmodel. Each takes the example's
# name and the cohmodel options of its trace's first line; the files are
# $work/NAME.trace (the example's input, as cohmodel reads it) and
# $work/NAME.out (what the example printed). Prints the summary.
check_rec() {
  local name=$1 opts=$2 n_inv n_req evictions writes
  # shellcheck disable=SC2086
  "$cohmodel" rec $opts --stats < "$work/$name.trace" > "$work/$name.ref" 2> "$work/$name.refstats" ||
    fail "cohmodel rejected $work/$name.trace"
  grep '^INV ' "$work/$name.out" > "$work/$name.inv" || true
  n_inv=$(wc -l < "$work/$name.ref")
  same "$work/$name.inv" "$work/$name.ref" "$name: INV lines differ from cohmodel rec $opts"
  grep '^requests ' "$work/$name.out" > "$work/$name.stats" || true
  same "$work/$name.stats" "$work/$name.refstats" "$name: statistics differ from cohmodel --stats"
  n_req=$(grep -cv '^#' "$work/$name.trace")
  evictions=$(sed -n 's/.*evictions \([0-9]*\) .*/\1/p' "$work/$name.stats")
  writes=$(sed -n 's/.*(write \([0-9]*\),.*/\1/p' "$work/$name.stats")
  [ "$n_inv" -gt 0 ] && [ "${evictions:-0}" -gt 0 ] && [ "${writes:-0}" -gt 0 ] ||
    fail "$name: the run did not evict and invalidate (nothing to compare)"
  echo "$n_req requests, $n_inv INV lines, $evictions evictions;" \
    "INV lines and statistics identical to cohmodel rec $opts"
}

# DualOpt GPU: the decision engines' streams; DECIDE lines as cohmodel's.
check_dualopt_de() {
  local name=$1 opts=$2 n_dec
  # shellcheck disable=SC2086
  "$cohmodel" dualopt-de $opts < "$work/$name.trace" > "$work/$name.ref" ||
    fail "cohmodel rejected $work/$name.trace"
  grep '^DECIDE ' "$work/$name.ref" > "$work/$name.refdec" || true
  grep '^DECIDE ' "$work/$name.out" > "$work/$name.dec" || true
  same "$work/$name.dec" "$work/$name.refdec" "$name: DECIDE lines differ from cohmodel dualopt-de $opts"
  n_dec=$(wc -l < "$work/$name.dec")
  grep -q '^check PASS' "$work/$name.out" || fail "$name: the GPU check did not pass"
  grep -qE '^DECIDE .* (COALESCE|CACHE) ' "$work/$name.dec" ||
    fail "$name: no engine chose an optimisation (nothing to compare)"
  echo "$n_dec decisions identical to cohmodel dualopt-de $opts; $(grep -c '^kernel ' "$work/$name.out") kernels checked"
}

# STC system: its output and event log as cohmodel's; the example's
# checker verdict (after '# checker') as cohmodel stc-check's on that log.
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

# HALCONE system: access lines, CHECK and invariant lines and the checker's
# summary as cohmodel's (cohmodel's other summary lines aside).
check_halcone_system() {
  local name=$1 opts=$2 n_ld
  # shellcheck disable=SC2086
  "$cohmodel" halcone-system $opts < "$work/$name.trace" > "$work/$name.ref" ||
    fail "cohmodel rejected $work/$name.trace"
  grep -vE '^# (loads|coherency|tsu) ' "$work/$name.ref" > "$work/$name.refsel" || true
  same "$work/$name.out" "$work/$name.refsel" "$name: output differs from cohmodel halcone-system $opts"
  grep -q '^# checked .* violations 0$' "$work/$name.out" || fail "$name: the checker found violations"
  n_ld=$(some '^LD ' "$work/$name.out" "$name: the run loaded nothing")
  echo "$(grep -cv '^#' "$work/$name.out") log lines ($n_ld loads) and the checker's verdict" \
    "identical to cohmodel halcone-system $opts"
}

# Exit status of a tool whose output is a verdict: 1 (FAIL, output complete)
# is compared like 0; anything else is bad input.
verdict() {
  [ "$1" = 1 ] || fail "$2 rejected $3 (status $1)"
}

# The number of lines of FILE matching RE; fails with WHY when none does.
some() {
  local n
  n=$(grep -c -- "$1" "$2" || true)
  [ "$n" -gt 0 ] || fail "$3 (nothing to compare)"
  echo "$n"
}

same() {
  cmp -s "$1" "$2" || { diff "$1" "$2" | head -5 >&2 || true; fail "$3 (< example, > cohmodel)"; }
}

work=$1 cohmodel=$2 soname=$3
shift 3
rm -rf "$work" && mkdir -p "$work"
declare -A first_of
for spec in "$@"; do
  bin=${spec%:*} link=${spec##*:} name=$(basename "${spec%:*}")
  needs=$(readelf -d "$bin" | grep -c "(NEEDED).*\[$soname\]" || true)
  if [ "$link" = shared ]; then [ "$needs" = 1 ] || fail "$name does not load $soname"
  else [ "$needs" = 0 ] || fail "$name is not linked statically (needs $soname)"; fi
  "$bin" "$work/$name.trace" > "$work/$name.out" || fail "$name exited with status $?"
  read -r hash tool unit opts < "$work/$name.trace"
  [ "$hash $tool" = "# cohmodel" ] || fail "$name.trace: first line is not '# cohmodel UNIT ...'"
  case $unit in
    rec|dualopt-de|stc-system|halcone-system) summary=$(check_"${unit//-/_}" "$name" "$opts") ;;
    *) fail "$name.trace: no check for cohmodel $unit" ;;
  esac
  src=${name%_static}
  if [ -n "${first_of[$src]:-}" ]; then
    cmp -s "$work/${first_of[$src]}.out" "$work/$name.out" ||
      fail "$name prints other output than ${first_of[$src]}"
  else
    first_of[$src]=$name
  fi
  echo "examples: $name ($link): $summary"
done
