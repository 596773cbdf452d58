#!/usr/bin/env bash
# Platform files name no family. A family is a folder of cmodel/ (its model,
# gen/ and tb/ beside it); what names it as an identifier or a path (F_, F-,
# /F/, or F_ in capitals, for a family F) belongs in that family's folders, its
# mk/<family>.mk or its own scripts (scripts/<family>-*), not in:
#   the files at the root of cmodel/, gen/ and tb/, the Makefile, mk/*.mk but
#   the families' fragments, scripts/*, synth/* and fpga/*.
# A family's name as a word of prose, in capitals, is not an identifier.
# scripts/check-platform.allow lists the exceptions (a path, or path:text for
# lines containing text), each with its reason. Prints every other offending
# file:line and exits 1; exit 0 when there is none.
#   scripts/check-platform.sh
set -uo pipefail
cd "$(dirname "$0")/.."
allow=scripts/check-platform.allow
fams=$(for d in cmodel/*/; do basename "$d"; done | tr '\n' ' ')
[ -n "$fams" ] || { echo "check-platform: no family folder under cmodel/"; exit 1; }
alt=$(echo $fams | tr ' ' '|')
ALT=$(echo "$alt" | tr a-z A-Z)
files=()
for f in cmodel/* gen/* tb/* Makefile mk/*.mk scripts/* synth/* fpga/*; do
  [ -f "$f" ] && [ "$f" != "$allow" ] || continue
  b=$(basename "$f")
  case "$f" in mk/*) [[ " $fams " == *" ${b%.mk} "* ]] && continue ;; esac
  case "$f" in scripts/*) [[ " $fams " == *" ${b%%-*} "* ]] && [ "$b" != "${b%%-*}" ] && continue ;; esac
  files+=("$f")
done
# lowercase names as tokens (not inside a longer word), uppercase as macro
# prefixes; the allow-list's own lines (path or path:text)
hits=$(grep -nP "(?<![A-Za-z0-9])($alt)(?![A-Za-z0-9])|(?<![A-Za-z0-9])($ALT)_" "${files[@]}" || true)
# every hit against the allow-list in one pass (prints the offending lines,
# then "# <offending> <allowed>")
res=$(printf '%s\n' "$hits" | awk -v allow="$allow" '
  BEGIN { while ((getline a < allow) > 0) { if (a ~ /^#/) continue; sub(/  #.*/, "", a); if (a != "") A[++na] = a } }
  $0 == "" { next }
  { i = index($0, ":"); f = substr($0, 1, i - 1); rest = substr($0, i + 1)
    j = index(rest, ":"); ln = substr(rest, 1, j - 1); text = substr(rest, j + 1)
    ok = 0
    for (k = 1; k <= na && !ok; k++) {
      a = A[k]
      if (a == f) ok = 1
      else if (index(a, f ":") == 1) { t = substr(a, length(f) + 2); if (t == "" || index(text, t) > 0) ok = 1 }
    }
    if (ok) allowed++; else { print f ":" ln ": " substr(text, 1, 120); n++ } }
  END { print "# " n + 0 " " allowed + 0 }')
printf '%s\n' "$res" | grep -v '^# '
read -r _ n allowed <<<"$(printf '%s\n' "$res" | tail -1)"
if [ $n -gt 0 ]; then
  echo "check-platform: $n lines of platform files name a family ($(echo $fams)); move them to the family's folder or mk/<family>.mk"
  exit 1
fi
echo "check-platform: ${#files[@]} platform files name no family (${fams% }), but for $allowed lines of $allow"
