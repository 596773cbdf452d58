#!/usr/bin/env bash
# The committed RTL of every registered unit (cohgen --list=configs: one line
# "unit family module preset" per committed configuration).
#   scripts/gen-committed.sh rtl          regenerate rtl/<family>/
#   scripts/gen-committed.sh check DIR    generate into DIR and compare with rtl/
set -euo pipefail
mode=$1 out=${2:-}
B=${B:-build}
list=$("$B/bin/cohgen" --list=configs)
[ -n "$list" ] || { echo "gen-committed: cohgen lists no configuration"; exit 1; }
if [ "$mode" = check ]; then rm -rf "$out"; root=$out; else root=rtl; fi
while read -r unit family module preset; do
  mkdir -p "$root/$family"
  "$B/bin/cohgen" "$unit" --config "$preset" --name "$module" -o "$root/$family"
done <<<"$list"
fams=$(awk '{print $2}' <<<"$list" | sort -u)
if [ "$mode" = rtl ]; then echo "rtl regenerated: $(echo $fams)"; exit 0; fi
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
