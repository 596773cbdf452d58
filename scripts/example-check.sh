#!/usr/bin/env bash
# Checks the library examples (make examples).
#   scripts/example-check.sh WORK COHMODEL SONAME BIN:shared|static ...
#     Runs each example; it writes its request stream as a trace whose first
#     line is "# cohmodel rec OPTIONS". cohmodel replays the trace; the
#     example's INV lines and statistics line must equal cohmodel's, and the
#     example must have evicted and invalidated. A shared binary must need
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
  [ "$hash $tool $unit" = "# cohmodel rec" ] || fail "$name.trace: first line is not '# cohmodel rec ...'"
  # shellcheck disable=SC2086
  "$cohmodel" rec $opts --stats < "$work/$name.trace" > "$work/$name.ref" 2> "$work/$name.refstats" ||
    fail "cohmodel rejected $work/$name.trace"
  grep '^INV ' "$work/$name.out" > "$work/$name.inv" || true
  n_inv=$(wc -l < "$work/$name.ref")
  cmp -s "$work/$name.inv" "$work/$name.ref" || {
    diff "$work/$name.inv" "$work/$name.ref" | head -5 >&2 || true
    fail "$name: INV lines differ from cohmodel rec $opts (< example, > cohmodel)"; }
  grep '^requests ' "$work/$name.out" > "$work/$name.stats" || true
  cmp -s "$work/$name.stats" "$work/$name.refstats" || {
    diff "$work/$name.stats" "$work/$name.refstats" >&2 || true
    fail "$name: statistics differ from cohmodel --stats"; }
  n_req=$(grep -cv '^#' "$work/$name.trace")
  evictions=$(sed -n 's/.*evictions \([0-9]*\) .*/\1/p' "$work/$name.stats")
  writes=$(sed -n 's/.*(write \([0-9]*\),.*/\1/p' "$work/$name.stats")
  [ "$n_inv" -gt 0 ] && [ "${evictions:-0}" -gt 0 ] && [ "${writes:-0}" -gt 0 ] ||
    fail "$name: the run did not evict and invalidate (nothing to compare)"
  src=${name%_static}
  if [ -n "${first_of[$src]:-}" ]; then
    cmp -s "$work/${first_of[$src]}.out" "$work/$name.out" ||
      fail "$name prints other output than ${first_of[$src]}"
  else
    first_of[$src]=$name
  fi
  echo "examples: $name ($link): $n_req requests, $n_inv INV lines, $evictions evictions;" \
    "INV lines and statistics identical to cohmodel rec $opts"
done
