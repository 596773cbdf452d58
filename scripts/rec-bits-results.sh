#!/usr/bin/env bash
# REC's storage data for make results (scripts/results.sh adds the header):
# bits per directory entry against the coalescing range for 4, 8 and 16
# GPUs, as `cohgen rec --report` gives them: the paper's accounting of
# Table 1, the packed accounting (no set-index bits in the tag) and the
# RTL's entry (8K entries, 8 ways, 64-byte lines, 48-bit addresses).
set -euo pipefail
g=${B:-build}/bin/cohgen
echo "# title: REC: bits per directory entry against coalescing range (Table 1 carried to the generator)"
echo "# caption: cohgen rec --gpus G --range R --report (8192 entries, 8 ways, 64 B lines, 48-bit addresses): the paper's accounting, the packed one and the RTL entry; the paper's Table 1 (4 GPUs) and section 4.3 (8 and 16 GPUs at 1 kB) marked (results/paper-rec-bits.csv)"
echo "gpus,range_bytes,paper_bits,packed_bits,rtl_bits"
for gp in 4 8 16; do
  for r in 64 128 256 512 1024 2048 4096; do
    $g rec --gpus "$gp" --range "$r" --report |
      awk -v g="$gp" -v r="$r" '
        /paper accounting/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bits" && $(i + 2) == "per") p = $i }
        /packed accounting/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bits" && $(i + 2) == "per") k = $i }
        /RTL \(store/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bits" && $(i + 2) == "per") t = $i }
        END { if (p == "" || k == "" || t == "") { print "rec-bits-results: no report for " g " GPUs, " r " B" > "/dev/stderr"; exit 1 }
              print g "," r "," p "," k "," t }'
  done
done
