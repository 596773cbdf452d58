#!/usr/bin/env bash
# Builds the Verilator runtime objects shared by every Verilated model
# (verilated_cov: only the coverage builds of make coverage link it).
#   scripts/vruntime.sh OUT_DIR   -> OUT_DIR/libvrt.a
set -euo pipefail
out=$1
mkdir -p "$out"
inc=$(verilator --getenv VERILATOR_ROOT)/include
for f in verilated verilated_vcd_c verilated_threads verilated_cov; do
  g++ -std=c++14 -O2 -c -I"$inc" -I"$inc/vltstd" "$inc/$f.cpp" -o "$out/$f.o"
done
rm -f "$out/libvrt.a"
ar rcs "$out/libvrt.a" "$out"/verilated*.o
