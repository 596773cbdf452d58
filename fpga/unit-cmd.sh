#!/usr/bin/env bash
# Prints the unit and options of a committed generated module, from its
# header's "Command: cohgen UNIT OPTIONS --name M -o DIR" line.
#   fpga/unit-cmd.sh rtl/<family>/<module>.sv
set -euo pipefail
cmd=$(sed -n 's|^// Command: cohgen \(.*\) --name [^ ]* -o DIR$|\1|p' "$1" | head -1)
[ -n "$cmd" ] || { echo "fpga/unit-cmd.sh: $1: no 'Command: cohgen' header line" >&2; exit 2; }
echo "$cmd"
