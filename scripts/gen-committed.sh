#!/usr/bin/env bash
# The committed RTL of every registered unit (cohgen --list=configs: one line
# "unit family module preset" per committed configuration).
#   scripts/gen-committed.sh rtl          regenerate rtl/<family>/ (a file is
#                                         replaced only when its text changed,
#                                         so make rebuilds only what changed)
#   scripts/gen-committed.sh check DIR    generate into DIR and compare with rtl/
set -euo pipefail
mode=$1 out=${2:-}
B=${B:-build}
list=$("$B/bin/cohgen" --list=configs)
[ -n "$list" ] || { echo "gen-committed: cohgen lists no configuration"; exit 1; }
if [ "$mode" = check ]; then root=$out; else root=$B/rtl-new; fi
rm -rf "$root"
while read -r unit family module preset; do
  mkdir -p "$root/$family"
  "$B/bin/cohgen" "$unit" --config "$preset" --name "$module" -o "$root/$family"
done <<<"$list"
fams=$(awk '{print $2}' <<<"$list" | sort -u)
if [ "$mode" = rtl ]; then
  n=0
  for f in $fams; do
    mkdir -p "rtl/$f"
    for g in "$root/$f"/*; do
      t="rtl/$f/$(basename "$g")"
      if ! cmp -s "$g" "$t"; then cp "$g" "$t"; n=$((n+1)); fi
    done
  done
  rm -rf "$root"
  echo "rtl regenerated: $(echo $fams) ($n files changed)"; exit 0
fi
fail=0
for f in $fams; do
  if diff -r "rtl/$f" "$out/$f" >"$out/$f.diff" 2>&1; then
    echo "check-generated: rtl/$f matches the generator"
  else
    head -20 "$out/$f.diff"
    echo "check-generated: rtl/$f differs from the generator; run 'make rtl'"; fail=1
  fi
done
exit $fail
