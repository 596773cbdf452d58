#!/usr/bin/env bash
# Checks the model library's exported interface.
#   scripts/lib-check.sh WORK LIB.a LIB.so SONAME "REQUIRED..." "PUBLIC..." \
#     "INTERNAL..." "PREFIXES..." OBJ...
# PUBLIC are the files installed under include/cohkit/; they are copied
# into WORK and used as a program would (#include <cohkit/x.h>). The public
# interface is what those headers declare. INTERNAL are the headers marked
# "cohkit: internal header" (not installed). PREFIXES are the kit's
# prefixes (cohkit and the families). Fails when
#  - an exported symbol, or a type, macro or inline function of a public
#    header, does not begin with one of PREFIXES and '_' (one line naming it);
#  - a public header does not bracket its declarations with
#    COHKIT_BEGIN_DECLS, or an internal one does (it would export them);
#  - a symbol is exported (shared or static library) that no public header
#    declares (an internal symbol leaking), or a declared one is not exported;
#  - a REQUIRED symbol is not exported, or the soname is not SONAME;
#  - a header does not compile alone as C11 and as C++11 (-Wall -Wextra
#    -Werror -pedantic);
#  - a C++ program referencing every exported symbol through the headers does
#    not link against the shared library (a header without C linkage);
#  - an object has writable static storage (.data, .bss, thread-local): the
#    models keep all state in their instances (docs/model-api.md, threads).
# Uses $CC and $CXX.
set -euo pipefail
work=$1 lib_a=$2 lib_so=$3 soname=$4 required=$5 public=$6 internal=$7 prefixes=$8
shift 8
objs=("$@")
CC=${CC:-cc} CXX=${CXX:-c++}
rm -rf "$work" && mkdir -p "$work/include/cohkit"
fail() { echo "lib-check: $*" >&2; exit 1; }

hdr=$work/include
headers=()
for f in $public; do
  cp "$f" "$hdr/cohkit/"
  case $f in *.h) headers+=("cohkit/$(basename "$f")") ;; esac
done
[ ${#headers[@]} -gt 0 ] || fail "no public headers"
for f in $public; do
  case $f in *.h) grep -q '^COHKIT_BEGIN_DECLS' "$f" ||
    fail "$f is installed but does not bracket its declarations with COHKIT_BEGIN_DECLS" ;; esac
done
internal_n=()
for f in $internal; do
  internal_n+=("$f")
  ! grep -q '^COHKIT_BEGIN_DECLS' "$f" ||
    fail "$f is an internal header but exports its declarations (COHKIT_BEGIN_DECLS)"
done
# Names outside the kit's prefixes (case-insensitive: cohkit_, COHKIT_, ...).
prefix_re="^($(echo "$prefixes" | tr ' ' '|'))_"
unprefixed() {
  local what=$1 bad
  bad=$({ grep -viE "$prefix_re" || true; } | sort -u | tr '\n' ' ' | sed 's/ $//')
  [ -z "$bad" ] || fail "$what without the kit's prefix (${prefixes// /_, }_): $bad"
}

# Defined global symbols (any upper-case type but U) of nm output.
globals() { awk 'NF == 3 && $2 ~ /^[A-TV-Z]$/ { print $3 }' | sort -u; }

nm -g --defined-only "${objs[@]}" | globals > "$work/candidates"
nm -D --defined-only "$lib_so" | globals > "$work/shared"
nm -g --defined-only "$lib_a" | globals > "$work/static"

# Which candidates the public headers declare: one translation unit takes
# the address of each; the compiler names the undeclared ones.
{
  for h in "${headers[@]}"; do echo "#include <$h>"; done
  echo "void cohkit_check_refs_(void);"
  echo "void cohkit_check_refs_(void)"
  echo "{"
  echo "    const void *volatile p;"
  while read -r s; do echo "    p = (const void *)&$s;"; done < "$work/candidates"
  echo "    (void)p;"
  echo "}"
} > "$work/declared.c"
set +e
LC_ALL=C $CC -std=c11 -I"$hdr" -fsyntax-only -fmax-errors=0 "$work/declared.c" > "$work/declared.log" 2>&1
set -e
sed -n "s/.*error: '\([A-Za-z_0-9]*\)' undeclared.*/\1/p; s/.*error: use of undeclared identifier '\([A-Za-z_0-9]*\)'.*/\1/p" \
  "$work/declared.log" | sort -u > "$work/undeclared"
n_err=$(grep -c 'error:' "$work/declared.log" || true)
n_und=$(grep -cE "error: ('[A-Za-z_0-9]*' undeclared|use of undeclared identifier)" "$work/declared.log" || true)
if [ "$n_err" != "$n_und" ]; then
  grep 'error:' "$work/declared.log" | head -5 >&2
  fail "the public headers do not compile together ($work/declared.c)"
fi
comm -23 "$work/candidates" "$work/undeclared" > "$work/public"
[ -s "$work/public" ] || fail "no symbol of the objects is declared in $hdr"

for kind in shared static; do
  unprefixed "symbols exported by the $kind library" < "$work/$kind"
done
# Types, macros and inline functions the public headers give a program
# (header guards and names ending in '_' aside).
sed -nE 's/^#define ([A-Za-z_][A-Za-z0-9_]*).*/\1/p
         s/^} *([A-Za-z_][A-Za-z0-9_]*);.*/\1/p
         s/^typedef [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*);.*/\1/p
         s/^typedef [^(]*\(\*([A-Za-z_][A-Za-z0-9_]*)\).*/\1/p
         s/^static inline [^(]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' \
  "${headers[@]/#/$hdr/}" | grep -vE '(_H|_)$' | unprefixed "public header names"
for kind in shared static; do
  leaked=$(comm -13 "$work/public" "$work/$kind" | tr '\n' ' ')
  missing=$(comm -23 "$work/public" "$work/$kind" | tr '\n' ' ')
  [ -z "$leaked" ] || fail "$kind library exports symbols no public header declares: $leaked"
  [ -z "$missing" ] || fail "$kind library does not export declared symbols: $missing"
done
for s in $required; do
  grep -qx "$s" "$work/shared" || fail "required symbol $s is not exported"
done
got=$(readelf -d "$lib_so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$got" = "$soname" ] || fail "soname is '$got', expected '$soname'"

# No mutable global or static variables (read-only tables are fine).
for o in "${objs[@]}"; do
  rw=$(size -A "$o" | awk '$1 ~ /^\.(data|bss|tdata|tbss)($|\.)/ && $1 !~ /^\.data\.rel\.ro/ && $2 > 0 { print $1 }' | tr '\n' ' ')
  [ -z "$rw" ] || fail "$(basename "$o") has writable static storage ($rw): state belongs in the instance"
done

# Every header alone, as C and as C++.
for h in "${headers[@]}"; do
  echo "#include <$h>" > "$work/alone.c"
  $CC -std=c11 -Wall -Wextra -Werror -pedantic -I"$hdr" -fsyntax-only "$work/alone.c" ||
    fail "$h does not compile alone as C11"
  $CXX -x c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$hdr" -fsyntax-only "$work/alone.c" ||
    fail "$h does not compile alone as C++11"
done

# C++ linkage of everything exported.
{
  for h in "${headers[@]}"; do echo "#include <$h>"; done
  echo "int main()"
  echo "{"
  echo "    const void *refs[] = {"
  while read -r s; do echo "        reinterpret_cast<const void *>(&$s),"; done < "$work/shared"
  echo "    };"
  echo "    int null = 0;"
  echo "    for (const void *r : refs) null += r == nullptr;"
  echo "    return null;"
  echo "}"
} > "$work/linkage.cpp"
$CXX -std=c++11 -Wall -Wextra -Werror -I"$hdr" "$work/linkage.cpp" -o "$work/linkage" \
  "$lib_so" > "$work/linkage.log" 2>&1 || {
  grep -m5 'undefined reference\|error' "$work/linkage.log" >&2 || true
  fail "a C++ program does not link against the exported symbols (header without COHKIT_BEGIN_DECLS?)"
}
LD_LIBRARY_PATH="$(dirname "$lib_so")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$work/linkage" ||
  fail "the C++ linkage program did not run"

echo "lib-check: $(wc -l < "$work/shared") symbols exported by $(basename "$lib_so") and $(basename "$lib_a")," \
  "exactly those declared in ${#headers[@]} public headers ($(wc -l < "$work/candidates") global symbols in the objects);" \
  "every name prefixed (${prefixes// /_, }_); ${#internal_n[@]} internal headers not installed;" \
  "soname $soname; no writable static storage; headers compile alone as C11 and C++11; C++ links against every symbol"
