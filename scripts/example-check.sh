#!/usr/bin/env bash
# Checks the library examples (make examples).
#   scripts/example-check.sh WORK COHMODEL SONAME BIN:shared|static ...
#     Runs each example as "BIN WORK/NAME.trace"; it writes its input as a
#     trace whose first line is "# cohmodel UNIT OPTIONS", and cohmodel
#     replays that trace. What must agree depends on UNIT: its family's
#     check_UNIT (scripts/<family>-examples.sh). A shared binary must need
#     SONAME, a static one must not. Examples built from the same source
#     must print the same output.
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

# Checks one run of an example against cohmodel: check_<unit> (dashes as
# underscores) for the unit its trace names, defined by the unit's family in
# scripts/<family>-examples.sh (sourced below, a family a folder of cmodel/).
# Each takes the example's name and the cohmodel options of its trace's first
# line; the files are $work/NAME.trace (the example's input, as cohmodel
# reads it) and $work/NAME.out (what the example printed), $cohmodel the tool.
# It compares with the helpers below (same, some, verdict, fail), fails when
# the run had nothing to compare, and prints the summary.
top=$(cd "$(dirname "$0")/.." && pwd)
for d in "$top"/cmodel/*/; do
  f=$top/scripts/$(basename "$d")-examples.sh
  # shellcheck disable=SC1090
  if [ -f "$f" ]; then source "$f"; fi
done

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

# shellcheck disable=SC2034  # cohmodel: read by the families' checks
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
  declare -F "check_${unit//-/_}" >/dev/null ||
    fail "$name.trace: no check for cohmodel $unit (check_${unit//-/_} in scripts/<family>-examples.sh)"
  summary=$(check_"${unit//-/_}" "$name" "$opts")
  src=${name%_static}
  if [ -n "${first_of[$src]:-}" ]; then
    cmp -s "$work/${first_of[$src]}.out" "$work/$name.out" ||
      fail "$name prints other output than ${first_of[$src]}"
  else
    first_of[$src]=$name
  fi
  echo "examples: $name ($link): $summary"
done
