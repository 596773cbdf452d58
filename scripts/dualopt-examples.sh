# shellcheck shell=bash
# shellcheck disable=SC2154  # work, cohmodel and the helpers: scripts/example-check.sh
# DualOpt's checks of the library examples, sourced by
# scripts/example-check.sh (make examples), which calls check_<unit> for an
# example whose trace names cohmodel <unit>.
#   dualopt-de (examples/dualopt_gpu.c: a DualOpt GPU's decision engines):
#   DECIDE lines as cohmodel's, the GPU check passed, an optimisation chosen.
check_dualopt_de() {
  local name=$1 opts=$2 n_dec
  # shellcheck disable=SC2086
  "$cohmodel" dualopt-de $opts < "$work/$name.trace" > "$work/$name.ref" ||
    fail "cohmodel rejected $work/$name.trace"
  grep '^DECIDE ' "$work/$name.ref" > "$work/$name.refdec" || true
  grep '^DECIDE ' "$work/$name.out" > "$work/$name.dec" || true
  same "$work/$name.dec" "$work/$name.refdec" "$name: DECIDE lines differ from cohmodel dualopt-de $opts"
  n_dec=$(wc -l < "$work/$name.dec")
  grep -q '^check PASS' "$work/$name.out" || fail "$name: the GPU check did not pass"
  grep -qE '^DECIDE .* (COALESCE|CACHE) ' "$work/$name.dec" ||
    fail "$name: no engine chose an optimisation (nothing to compare)"
  echo "$n_dec decisions identical to cohmodel dualopt-de $opts; $(grep -c '^kernel ' "$work/$name.out") kernels checked"
}
