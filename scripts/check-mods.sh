#!/usr/bin/env bash
# The make lists of committed modules (<family>_MODS in mk/<family>.mk) must
# name exactly the registry's committed configurations (unit_desc.committed,
# listed by cohgen --list=configs).
#   scripts/check-mods.sh COHGEN family/module...
set -euo pipefail
cohgen=$1; shift
want=$("$cohgen" --list=configs | awk '{print $2 "/" $3}' | sort)
have=$(printf '%s\n' "$@" | sort)
[ "$want" = "$have" ] && { echo "check-mods: the make lists match the registry ($(wc -l <<<"$want") modules)"; exit 0; }
comm -23 <(echo "$want") <(echo "$have") | while read -r m; do
  echo "check-mods: ${m#*/} is committed by the registry but missing from ${m%%/*}_MODS (mk/${m%%/*}.mk)"
done
comm -13 <(echo "$want") <(echo "$have") | while read -r m; do
  echo "check-mods: ${m#*/} is in ${m%%/*}_MODS (mk/${m%%/*}.mk) but not committed by the registry"
done
exit 1
