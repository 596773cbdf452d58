#!/usr/bin/env bash
# DualOpt's traffic data for make results (scripts/results.sh adds the
# header): the inter-GPU link traffic (bytes and flits, both directions) of
# the GPU model (`./tb_dualopt --gpu --c-only`: every GPU's BGU, SCBU, MSHR,
# CoDec, RDMA cache and decision engine as functional cores) per kernel kind
# and mode: none (the baseline: remote lines fetched whole), coalesce
# (remote access coalescing), cache (the RDMA cache) and auto (the decision
# engine's pick), seeds 1-3, 4 GPUs, 2 kernels each.
set -euo pipefail
tb=./tb_dualopt
[ -x "$tb" ] || { echo "dualopt-traffic-results: $tb missing (make tb_dualopt)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "# title: DualOpt: link traffic per kernel kind and mode (bytes and flits)"
echo "# caption: ./tb_dualopt --gpu --c-only --kernel K --force M --seed S (4 GPUs, 2 kernels, default accesses), seeds 1-3 summed; none = remote lines fetched whole (the baseline), coalesce = remote access coalescing, cache = the RDMA cache, auto = the decision engine's pick per GPU and kernel; synthetic kernels, so no paper figure is drawn beside them"
echo "kernel,mode,link_bytes,link_flits,read_requests,line_responses,coalesced_packets,slots,writes,flits_vs_none_pct"
for k in local sparse reuse; do
  for m in none coalesce cache auto; do
    for s in 1 2 3; do
      "$tb" --gpu --c-only --kernel "$k" --force "$m" --seed "$s" >"$out" ||
        { echo "dualopt-traffic-results: $tb --gpu --c-only --kernel $k --force $m --seed $s failed" >&2; exit 1; }
      cat "$out"
    done | awk -v k="$k" -v m="$m" '
      function num(s) { gsub(/[^0-9]/, "", s); return s + 0 }
      # "<mode>: link B bytes, F flits (read requests R, line responses L, coalesced packets P with S slots, writes W)"
      $1 == m ":" && $2 == "link" { b += num($3); f += num($5); rq += num($9); lr += num($12)
                                    cp += num($15); sl += num($17); wr += num($20); n++ }
      $1 == "none:" && $2 == "link" { nf += num($5) }
      END { if (n != 3) { print "dualopt-traffic-results: " k " " m ": " n " of 3 runs reported their link" > "/dev/stderr"; exit 1 }
            if (m == "none") nf = f
            printf "%s,%s,%d,%d,%d,%d,%d,%d,%d,%.1f\n", k, m, b, f, rq, lr, cp, sl, wr, 100 * f / nf }'
  done
done
