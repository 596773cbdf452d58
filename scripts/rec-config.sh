#!/usr/bin/env bash
# Generates, lints, Verilates and links the lockstep bench of one REC
# configuration.   scripts/rec-config.sh OUT_DIR NAME [cohgen options...]
# Leaves OUT_DIR/NAME/tb_rec (a bench whose only --config is NAME).
set -euo pipefail
out=$1 name=$2; shift 2
B=${B:-build}
dir="$out/$name"
rm -rf "$dir"; mkdir -p "$dir"
"$B/bin/cohgen" rec "$@" --name "rec_$name" -o "$dir/rtl"
scripts/lint.sh "$dir/rtl/rec_$name.sv" >"$dir/lint.log" 2>&1 || { cat "$dir/lint.log"; exit 1; }
scripts/verilate.sh "rec_$name" "$dir/rtl" "$dir/vobj"
scripts/registry.sh rec "$dir/duts.c" "rec_$name"
cc -std=c11 -O2 -Itb -Icmodel -c "$dir/duts.c" -o "$dir/duts.o"
cc -o "$dir/tb_rec" "$B/obj/tb/tb_rec.o" "$B/obj/tb/rec_bench.o" "$B/obj/cmodel/rec.o" \
  "$B/obj/cmodel/rec_trace.o" "$dir/duts.o" "$dir/vobj/rec_$name/librec_$name.a" \
  "$B/vrt/libvrt.a" -lstdc++ -lm -pthread
