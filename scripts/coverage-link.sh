#!/usr/bin/env bash
# The link inputs of a coverage binary (mk/coverage.mk): those make knows for
# TARGET (./tb_<family> or build/test_all, the families' fragments adding
# their own objects), with the measured MODULEs' libraries and the Verilator
# runtime taken from the coverage build CB.
#   scripts/coverage-link.sh TARGET CB MODULE...
set -euo pipefail
t=$1 cb=$2; shift 2
B=${B:-build}
line=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -pqn --no-print-directory "$t" 2>/dev/null |
  awk -v t="$t:" '$1 == t {$1 = ""; print; exit}' || true)
[ -n "$line" ] || { echo "coverage-link: make knows no inputs of $t" >&2; exit 1; }
want=" $* "
for f in $line; do
  case "$f" in
    "$B"/vobj/*/lib*.a)
      m=$(basename "$(dirname "$f")")
      if [[ "$want" == *" $m "* ]]; then echo "$cb/vobj/$m/lib$m.a"; else echo "$f"; fi ;;
    "$B"/vrt/libvrt.a) echo "$cb/vrt/libvrt.a" ;;
    *) echo "$f" ;;
  esac
done
