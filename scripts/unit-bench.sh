#!/usr/bin/env bash
# Builds the lockstep bench of one configuration of a unit.
#   scripts/unit-bench.sh [--no-lint] [--rtl-from DIR] OUT_DIR NAME UNIT [cohgen options...]
# Generates the unit's RTL (cohgen UNIT options --name <prefix>_NAME) into
# OUT_DIR/NAME/rtl, or with --rtl-from copies <prefix>_NAME.sv, its part
# modules and its shim from DIR (a mutated copy, say); lints it (not with --no-lint: Verilator
# warnings are then allowed too); Verilates it; links OUT_DIR/NAME/tb_<family>,
# a bench whose only configuration is NAME:
#   OUT_DIR/NAME/tb_<family> --unit UNIT --config NAME --seed S --cycles N
# Needs the objects of `make tools` (B=build by default).
set -euo pipefail
lint=1 from=
while [ $# -gt 0 ]; do
  case "$1" in
    --no-lint) lint=0; shift ;;
    --rtl-from) from=$2; shift 2 ;;
    *) break ;;
  esac
done
out=$1 name=$2 unit=$3; shift 3
B=${B:-build}
read -r _ family prefix < <("$B/bin/cohgen" --list=units | awk -v u="$unit" '$1 == u')
[ -n "${prefix:-}" ] || { echo "unit-bench: unknown unit '$unit'" >&2; exit 2; }
mod="${prefix}_$name"
dir="$out/$name"
rm -rf "$dir"; mkdir -p "$dir/rtl"
if [ -n "$from" ]; then
  cp "$from/$mod.sv" "$from/${mod}_shim.cpp" "$dir/rtl/"
  [ -f "$from/${mod}_tb.sv" ] && cp "$from/${mod}_tb.sv" "$dir/rtl/"
  # a composite's part modules (gen/parts.h): <mod>_<part>.sv beside it
  for f in "$from/${mod}"_*.sv; do [ -f "$f" ] && cp "$f" "$dir/rtl/"; done
else
  "$B/bin/cohgen" "$unit" "$@" --name "$mod" -o "$dir/rtl"
fi
if [ $lint -eq 1 ]; then
  scripts/lint.sh "$dir/rtl/$mod.sv" >"$dir/lint.log" 2>&1 || { cat "$dir/lint.log"; exit 1; }
else
  export ALLOW_WARNINGS=1
fi
scripts/verilate.sh "$mod" "$dir/rtl" "$dir/vobj"
scripts/registry.sh "$family" "$dir/duts.c" "$mod"
cc -std=c11 -O2 -Itb -Icmodel $(for d in cmodel/*/ tb/*/; do printf -- "-I%s " "${d%/}"; done) -c "$dir/duts.c" -o "$dir/duts.o"
cc -o "$dir/tb_$family" $(cat "$B/tb_$family.objs") "$dir/duts.o" "$dir/vobj/$mod/lib$mod.a" \
  "$B/vrt/libvrt.a" -lstdc++ -lm -pthread
