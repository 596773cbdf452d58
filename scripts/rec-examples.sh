# shellcheck shell=bash
# shellcheck disable=SC2154  # work, cohmodel and the helpers: scripts/example-check.sh
# REC's checks of the library examples, sourced by scripts/example-check.sh
# (make examples), which calls check_<unit> for an example whose trace names
# cohmodel <unit>.
#   rec (examples/rec_sim.c, rec_sim.cpp): INV lines and statistics as
#   cohmodel rec --stats prints them, and the run evicted and invalidated.
check_rec() {
  local name=$1 opts=$2 n_inv n_req evictions writes
  # shellcheck disable=SC2086
  "$cohmodel" rec $opts --stats < "$work/$name.trace" > "$work/$name.ref" 2> "$work/$name.refstats" ||
    fail "cohmodel rejected $work/$name.trace"
  grep '^INV ' "$work/$name.out" > "$work/$name.inv" || true
  n_inv=$(wc -l < "$work/$name.ref")
  same "$work/$name.inv" "$work/$name.ref" "$name: INV lines differ from cohmodel rec $opts"
  grep '^requests ' "$work/$name.out" > "$work/$name.stats" || true
  same "$work/$name.stats" "$work/$name.refstats" "$name: statistics differ from cohmodel --stats"
  n_req=$(grep -cv '^#' "$work/$name.trace")
  evictions=$(sed -n 's/.*evictions \([0-9]*\) .*/\1/p' "$work/$name.stats")
  writes=$(sed -n 's/.*(write \([0-9]*\),.*/\1/p' "$work/$name.stats")
  [ "$n_inv" -gt 0 ] && [ "${evictions:-0}" -gt 0 ] && [ "${writes:-0}" -gt 0 ] ||
    fail "$name: the run did not evict and invalidate (nothing to compare)"
  echo "$n_req requests, $n_inv INV lines, $evictions evictions;" \
    "INV lines and statistics identical to cohmodel rec $opts"
}
