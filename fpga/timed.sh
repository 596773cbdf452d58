#!/usr/bin/env bash
# Runs a command and writes its wall time in seconds to a file.
#   fpga/timed.sh OUT_FILE CMD [ARGS...]   (exit status: the command's)
out=$1; shift
t0=$(date +%s.%N)
"$@"; rc=$?
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' > "$out"
exit $rc
