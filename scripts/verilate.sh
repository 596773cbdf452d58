#!/usr/bin/env bash
# Verilates one generated module and archives it with its shim.
#   scripts/verilate.sh MODULE SRC_DIR OUT_DIR [HARNESS_DIR]
# MODULE.sv is read from SRC_DIR, MODULE_shim.cpp from HARNESS_DIR (default
# SRC_DIR).
# Writes OUT_DIR/MODULE/libMODULE.a (model + tb/dut.h shim). The Verilator
# runtime is built once by scripts/vruntime.sh.
# VCOV=1 (make coverage, mk/coverage.mk): with Verilator's line and toggle
# coverage; the shim then sums the counters and writes them at exit
# (tb/cov_hook.h).
set -euo pipefail
mod=$1 src=$2 out=$3 harness=${4:-$2}
top=$(cd "$(dirname "$0")/.." && pwd)
obj="$out/$mod"
mkdir -p "$obj"
srcabs=$(cd "$src" && pwd)
opt=${VOPT:--O2}
cov=()
[ "${VCOV:-0}" = 1 ] && cov=(--coverage-line --coverage-toggle)
verilator --cc --trace "${cov[@]}" -Wall -Wno-fatal --x-assign unique --x-initial unique \
  --prefix "V$mod" --top-module "$mod" -y "$srcabs" --Mdir "$obj" "$srcabs/$mod.sv" >"$obj/verilator.log" 2>&1 || {
  cat "$obj/verilator.log" >&2; exit 1; }
# a lint warning fails the build, except for deliberately broken (mutant) RTL
if [ -z "${ALLOW_WARNINGS:-}" ] && grep -q '%Warning' "$obj/verilator.log"; then cat "$obj/verilator.log" >&2; exit 1; fi
# One module per job of the calling make (its job slots are not passed on).
# The model's C++ files and the shim are compiled as one unit: a split model
# (VM_PARALLEL_BUILDS=1, Verilator's choice for larger designs) parses the
# Verilator headers again in every file, and so would the shim alone; one
# unit takes about half the CPU time of a split model and its shim.
hdir=$(cd "$harness" && pwd)
vmk() { env -u MAKEFLAGS -u MFLAGS make -s -C "$obj" -f "V$mod.mk" VM_PARALLEL_BUILDS=0 "$@" >/dev/null; }
vmk "V${mod}__ALL.cpp"
printf '#include "V%s__ALL.cpp"\n#include "%s"\n' "$mod" "$hdir/${mod}_shim.cpp" >"$obj/V${mod}__unit.cpp"
vmk OPT_FAST="$opt" USER_CPPFLAGS="-I$top/tb" "V${mod}__unit.o"
rm -f "$obj/lib$mod.a"
ar rcs "$obj/lib$mod.a" "$obj/V${mod}__unit.o"
