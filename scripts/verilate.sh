#!/usr/bin/env bash
# Verilates one generated module and archives it with its shim.
#   scripts/verilate.sh MODULE SRC_DIR OUT_DIR [HARNESS_DIR]
# MODULE.sv is read from SRC_DIR, MODULE_shim.cpp from HARNESS_DIR (default
# SRC_DIR).
# Writes OUT_DIR/MODULE/libMODULE.a (model + tb/dut.h shim). The Verilator
# runtime is built once by scripts/vruntime.sh.
set -euo pipefail
mod=$1 src=$2 out=$3 harness=${4:-$2}
top=$(cd "$(dirname "$0")/.." && pwd)
obj="$out/$mod"
mkdir -p "$obj"
srcabs=$(cd "$src" && pwd)
opt=${VOPT:--O2}
verilator --cc --trace -Wall -Wno-fatal --x-assign unique --x-initial unique \
  --prefix "V$mod" --top-module "$mod" -y "$srcabs" --Mdir "$obj" "$srcabs/$mod.sv" >"$obj/verilator.log" 2>&1 || {
  cat "$obj/verilator.log" >&2; exit 1; }
# a lint warning fails the build, except for deliberately broken (mutant) RTL
if [ -z "${ALLOW_WARNINGS:-}" ] && grep -q '%Warning' "$obj/verilator.log"; then cat "$obj/verilator.log" >&2; exit 1; fi
# one module per job of the calling make (its job slots are not passed on)
env -u MAKEFLAGS -u MFLAGS make -s -C "$obj" -f "V$mod.mk" OPT_FAST="$opt" OPT_SLOW="-O1" OPT_GLOBAL="$opt" "V${mod}__ALL.a" >/dev/null
inc=$(verilator --getenv VERILATOR_ROOT)/include
g++ -std=c++14 $opt -c -I"$obj" -I"$inc" -I"$inc/vltstd" -I"$top/tb" \
  "$harness/${mod}_shim.cpp" -o "$obj/${mod}_shim.o"
cp "$obj/V${mod}__ALL.a" "$obj/lib$mod.a"
ar rcs "$obj/lib$mod.a" "$obj/${mod}_shim.o"
