#!/usr/bin/env bash
# make results / make results-<family>: each family's data for the figures,
# measured by its own scripts/<family>-results.sh (which prints its title,
# caption, CSV header and rows from the kit's model tools), written to
# results/<family>.csv under a header naming the command, the commit the
# tools were built from, the machine and the tool versions (read by
# scripts/figures.py for README's Results section). A failing command
# leaves the committed file as it was.
#   scripts/results.sh FAMILY...
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "results: no family given" >&2; exit 2; }
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# changes to the files the data comes from (the tools' sources, the scripts)
[ -z "$(git status --porcelain --untracked-files=no -- cmodel gen scripts tb 2>/dev/null)" ] || commit+=" with uncommitted changes"
machine="$(uname -m), $(nproc) cores"
tools="$(cc --version | head -1); $(gnuplot --version 2>/dev/null || echo 'gnuplot missing')"
mkdir -p results
for f in "$@"; do
  s=scripts/$f-results.sh
  [ -x "$s" ] || { echo "results: $s missing (a family's data script)" >&2; exit 2; }
  tmp=$(mktemp results/.$f.XXXXXX)
  t0=$(date +%s.%N)
  if ! { echo "# command: $s (make results-$f)"
         echo "# commit: $commit"
         echo "# machine: $machine"
         echo "# tools: $tools"
         "$s"; } >"$tmp"; then
    rm -f "$tmp"; echo "results: $s failed" >&2; exit 1
  fi
  mv "$tmp" "results/$f.csv"
  awk -v f="$f" -v t0="$t0" -v t1="$(date +%s.%N)" '!/^#/ { n++ }
    END { printf "results: results/%s.csv, %d rows, %.1f s\n", f, n - 1, t1 - t0 }' "results/$f.csv"
done
