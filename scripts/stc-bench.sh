#!/usr/bin/env bash
# STC's part of make bench (scripts/bench.sh, which exports rate() and
# reads the rows into its measurement table): after the measurement table, the
# epoch-transition table (scripts/stc-bench.py: NV, ES, AB, MB on the
# programs of tb/stc/bench/, every log judged by stc-check; exit 1 if one
# fails).
set -euo pipefail
B=${B:-build}
if [ -d tb/stc/bench ]; then
  echo
  python3 scripts/stc-bench.py --cohmodel "$B/bin/cohmodel" --out "$B/stc-bench"
fi
