#!/usr/bin/env bash
# DualOpt's part of make bench (scripts/bench.sh, which exports rate() and
# reads the rows into its measurement table): the end-to-end system's
# simulation rate.
set -euo pipefail
B=${B:-build}
if [ -x ./tb_dualopt ]; then
  r=$(./tb_dualopt --e2e --gpus 4 --kernel mixed --loads 64 --mode coalesce --seed 1 |
      sed -n 's/.*; \([0-9]*\) cycles per second$/\1/p')
  echo "| DualOpt end to end, 4 GPUs: 20 Verilated units in lockstep with their shells, mixed kernel, 64 loads per GPU | default | $r cycles/s |"
fi
