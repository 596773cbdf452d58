#!/usr/bin/env bash
# Places and routes a synthesized self-test top once per nextpnr seed and
# keeps the run of median Fmax (make fpga).
#   fpga/pnr.sh DIR DEV FREQ "NEXTPNR-DEVICE-OPTIONS" SEED...
# Reads DIR/DEV.json (synth_ice40) and fpga/DEV.pcf. Per seed S:
# DIR/DEV.sS.{asc,report.json,pnr.log,pnr.time}. Then DIR/DEV.seeds ("S Fmax"
# per line, in seed order) and the median run (the lower middle one for an
# even count) copied to DIR/DEV.{asc,report.json,pnr.log,pnr.time}, packed
# into DIR/selftest_DEV.bin. A design larger than the device is recorded in
# DIR/DEV.nofit (the utilisation nextpnr printed), exit 0: reported, not a
# flow error. Any other nextpnr failure: its errors, exit 1.
# With FPGA_PNR_RUNS set (make fpga: the runs of every top, seeds x tops x
# devices; PROGRESS_T0, the time make started), the progress line after each
# run (scripts/progress.sh): runs done of the flow's, every run whose result
# is in DIR's parent folder counted (a top already up to date is done).
set -uo pipefail
[ $# -ge 5 ] || { echo "usage: fpga/pnr.sh DIR DEV FREQ DEVICE-OPTIONS SEED..." >&2; exit 2; }
dir=$1 dev=$2 freq=$3 devopts=$4; shift 4
here=$(dirname "$0")
. "$here/../scripts/progress.sh"
runs_done() {
  [ -z "${FPGA_PNR_RUNS:-}" ] || progress_step "$(find "$dir/.." -name '*.s[0-9]*.pnr.time' | wc -l)"
}
[ -z "${FPGA_PNR_RUNS:-}" ] || progress_start "$FPGA_PNR_RUNS" "place-and-route runs" "${PROGRESS_T0:-}"
rm -f "$dir/$dev".s[0-9]*.* "$dir/$dev.seeds" "$dir/$dev.nofit" "$dir/selftest_$dev.bin" \
  "$dir/$dev.asc" "$dir/$dev.report.json" "$dir/$dev.pnr.log" "$dir/$dev.pnr.time"
list=""
for s in "$@"; do
  p=$dir/$dev.s$s
  # shellcheck disable=SC2086  # the device options are words
  if ! "$here/timed.sh" "$p.pnr.time" nextpnr-ice40 $devopts --pcf "$here/$dev.pcf" \
      --json "$dir/$dev.json" --asc "$p.asc" --freq "$freq" --timing-allow-fail \
      --seed "$s" --report "$p.report.json" >"$p.pnr.log" 2>&1; then
    if grep -q 'no BELs remaining' "$p.pnr.log"; then
      grep -E 'ICESTORM_(LC|RAM):' "$p.pnr.log" | head -2 >"$dir/$dev.nofit"
      cp "$p.pnr.log" "$dir/$dev.pnr.log"; cp "$p.pnr.time" "$dir/$dev.pnr.time"
      echo "fpga: $(basename "$dir"): DOES NOT FIT the $dev:"; cat "$dir/$dev.nofit"
      exit 0
    fi
    grep -E 'ERROR|Max frequency' "$p.pnr.log" | tail -5
    exit 1
  fi
  f=$(python3 -c "import json,sys; print('%.2f' % next(iter(json.load(open(sys.argv[1]))['fmax'].values()))['achieved'])" "$p.report.json")
  echo "fpga: $(basename "$dir"): $dev seed $s: $f MHz"
  list+="$s $f"$'\n'
  runs_done
done
progress_end
printf '%s' "$list" >"$dir/$dev.seeds"
n=$#
m=$(sort -k2,2g <<<"${list%$'\n'}" | sed -n "$(( (n + 1) / 2 ))p" | cut -d' ' -f1)
p=$dir/$dev.s$m
for x in asc report.json pnr.log pnr.time; do cp "$p.$x" "$dir/$dev.$x"; done
[ "$n" -eq 1 ] || echo "fpga: $(basename "$dir"): $dev median over seeds $*: seed $m"
grep 'Max frequency' "$dir/$dev.pnr.log" | tail -1
icepack "$dir/$dev.asc" "$dir/selftest_$dev.bin"
