#!/usr/bin/env bash
# The committed RTL of every registered unit (cohgen --list=configs: one line
# "unit family module preset" per committed configuration). Only the modules
# are committed under rtl/<family>/; their harness (port header, Verilator
# shim, Icarus replay bench) is generated from the same configurations into
# the build directory.
#   scripts/gen-committed.sh rtl          regenerate rtl/<family>/ (a file is
#                                         replaced only when its text changed,
#                                         so make rebuilds only what changed)
#   scripts/gen-committed.sh harness DIR  the harness into DIR/<family>/ (the
#                                         same rule for replacing files)
#   scripts/gen-committed.sh check DIR    generate into DIR and compare with
#                                         rtl/, which must hold the modules
#                                         and nothing else
set -euo pipefail
mode=$1 out=${2:-}
B=${B:-build}
list=$("$B/bin/cohgen" --list=configs)
[ -n "$list" ] || { echo "gen-committed: cohgen lists no configuration"; exit 1; }
fams=$(awk '{print $2}' <<<"$list" | sort -u)

# generate WHAT ROOT: every configuration's module (WHAT=module; the harness
# cohgen writes with it goes to a scratch directory) or harness (WHAT=harness)
# into ROOT/<family>/
generate() {
  local what=$1 root=$2 unit family module preset
  local -a dest
  rm -rf "$root" "$root.scratch"
  while read -r unit family module preset; do
    if [ "$what" = module ]; then dest=(-o "$root/$family" --harness "$root.scratch/$family")
    else dest=(--harness "$root/$family"); fi
    "$B/bin/cohgen" "$unit" --config "$preset" --name "$module" "${dest[@]}"
  done <<<"$list"
  rm -rf "$root.scratch"
}
# update FROM DEST: copy FROM/<family>/* to DEST/<family>/ where the text
# changed; prints how many files it copied
update() {
  local n=0 f g t
  for f in $fams; do
    mkdir -p "$2/$f"
    for g in "$1/$f"/*; do
      t="$2/$f/$(basename "$g")"
      if ! cmp -s "$g" "$t"; then cp "$g" "$t"; n=$((n+1)); fi
    done
  done
  rm -rf "$1"
  echo "$n"
}

case "$mode" in
  rtl)
    generate module "$B/rtl-new"
    n=$(update "$B/rtl-new" rtl)
    echo "rtl regenerated: $(echo $fams) ($n files changed)"
    exit 0 ;;
  harness)
    [ -n "$out" ] || { echo "gen-committed: harness needs a directory" >&2; exit 2; }
    generate harness "$out.new"
    n=$(update "$out.new" "$out")
    [ "$n" -eq 0 ] || echo "harness: $(echo $fams) ($n files changed under $out)"
    exit 0 ;;
  check) [ -n "$out" ] || { echo "gen-committed: check needs a directory" >&2; exit 2; } ;;
  *) echo "gen-committed: unknown mode '$mode' (rtl, harness DIR, check DIR)" >&2; exit 2 ;;
esac

generate module "$out"
fail=0
for f in $fams; do
  if diff -r "rtl/$f" "$out/$f" >"$out/$f.diff" 2>&1; then
    echo "check-generated: rtl/$f matches the generator"
  else
    head -20 "$out/$f.diff"
    echo "check-generated: rtl/$f differs from the generator; run 'make rtl'"; fail=1
  fi
done
# what git tracks under rtl/ is the committed modules and nothing else (no
# harness file, no module of a configuration the registry does not commit)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # (the committed modules and a composite's part modules: what the generator
  # just wrote, gen/parts.h)
  extra=$(git ls-files rtl | grep -vxF -f <(cd "$out" && find . -name '*.sv' | sed 's|^\./|rtl/|') || true)
  if [ -n "$extra" ]; then
    echo "$extra" | head -20
    echo "check-generated: git tracks $(wc -l <<<"$extra") files under rtl/ that are not committed modules"
    fail=1
  else
    echo "check-generated: git tracks only the $(git ls-files rtl | wc -l) committed modules under rtl/ ($(wc -l <<<"$list") units' configurations and their parts)"
  fi
fi
exit $fail
