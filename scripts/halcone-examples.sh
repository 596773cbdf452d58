# shellcheck shell=bash
# shellcheck disable=SC2154  # work, cohmodel and the helpers: scripts/example-check.sh
# HALCONE's checks of the library examples, sourced by
# scripts/example-check.sh (make examples), which calls check_<unit> for an
# example whose trace names cohmodel <unit>.
#   halcone-system (examples/halcone_system.c): access lines, CHECK and
#   invariant lines and the checker's summary (no violation) as cohmodel's
#   (cohmodel's other summary lines aside).
check_halcone_system() {
  local name=$1 opts=$2 n_ld
  # shellcheck disable=SC2086
  "$cohmodel" halcone-system $opts < "$work/$name.trace" > "$work/$name.ref" ||
    fail "cohmodel rejected $work/$name.trace"
  grep -vE '^# (loads|coherency|tsu) ' "$work/$name.ref" > "$work/$name.refsel" || true
  same "$work/$name.out" "$work/$name.refsel" "$name: output differs from cohmodel halcone-system $opts"
  grep -q '^# checked .* violations 0$' "$work/$name.out" || fail "$name: the checker found violations"
  n_ld=$(some '^LD ' "$work/$name.out" "$name: the run loaded nothing")
  echo "$(grep -cv '^#' "$work/$name.out") log lines ($n_ld loads) and the checker's verdict" \
    "identical to cohmodel halcone-system $opts"
}
