# Progress of a long command, for bash scripts (sourced):
#   . "$(dirname "$0")/progress.sh"
#   progress_start TOTAL WHAT [NOW]   before the first item
#   progress_step DONE [NOW]          after an item: DONE of TOTAL are done
#   progress_end [NOW]                after the last one
# The line, on standard error (standard output stays the command's results):
#   progress: D of T WHAT (P %), E s elapsed, about L s left
# P to a tenth, E whole seconds since progress_start, L the time left at the
# rate so far (no estimate before the first item is done); the wording of a
# long lockstep run's line (tb/lockstep.c). On a terminal it is one updating
# line (\r ... \033[K), redrawn at most once a second, ended by progress_end;
# otherwise (CI logs) a plain line when PROGRESS_SECONDS (default 30) have
# passed since the last one and an item has been done since: never more than
# one line an item (PROGRESS_SECONDS=0: a line an item), nothing from
# progress_end. PROGRESS_TTY=1 or 0 overrides the terminal test. NOW
# (seconds, for tests) replaces the clock. progress_note, when set, is added
# to the line in parentheses. scripts/progress.py is the same for Python.
# Every function returns 0 (callers may run under set -e).

progress_line() {  # DONE ELAPSED -> the line, without \r or newline
  local d=$1 e=$2 t=${_pg_total:-0} p10=0
  [ "$t" -gt 0 ] && p10=$(((2000 * d + t) / (2 * t)))
  printf 'progress: %d of %d %s (%d.%d %%), %d s elapsed' "$d" "$t" "$_pg_what" $((p10 / 10)) $((p10 % 10)) "$e"
  [ "$d" -gt 0 ] && printf ', about %d s left' $(((2 * e * (t - d) + d) / (2 * d)))
  [ -z "${progress_note:-}" ] || printf ' (%s)' "$progress_note"
  return 0
}

progress_start() {  # TOTAL WHAT [NOW]
  _pg_total=$1 _pg_what=$2 _pg_t0=${3:-$EPOCHSECONDS}
  _pg_every=${PROGRESS_SECONDS:-30}
  if ! [[ "$_pg_every" =~ ^[0-9]+$ ]]; then
    echo "progress: PROGRESS_SECONDS: '$_pg_every' is not a number of seconds" >&2
    exit 2
  fi
  _pg_tty=${PROGRESS_TTY:-}
  if [ -z "$_pg_tty" ]; then if [ -t 2 ]; then _pg_tty=1; else _pg_tty=0; fi; fi
  _pg_last=$_pg_t0 _pg_done=0 _pg_shown=0 _pg_on=1
  return 0
}

progress_step() {  # DONE [NOW]
  [ "${_pg_on:-0}" = 1 ] || return 0
  local now=${2:-$EPOCHSECONDS}
  if [ "$_pg_tty" = 1 ]; then
    _pg_done=$1
    if [ "$_pg_shown" = 0 ] || [ "$now" -gt "$_pg_last" ]; then
      printf '\r%s\033[K' "$(progress_line "$_pg_done" $((now - _pg_t0)))" >&2
      _pg_shown=1 _pg_last=$now
    fi
  elif [ "$1" -gt "$_pg_done" ] && [ $((now - _pg_last)) -ge "$_pg_every" ]; then
    _pg_done=$1
    printf '%s\n' "$(progress_line "$_pg_done" $((now - _pg_t0)))" >&2
    _pg_last=$now
  fi
  return 0
}

progress_end() {  # [NOW]
  [ "${_pg_on:-0}" = 1 ] || return 0
  _pg_on=0
  [ "$_pg_tty" = 1 ] && [ "$_pg_shown" = 1 ] &&
    printf '\r%s\033[K\n' "$(progress_line "$_pg_done" $((${1:-$EPOCHSECONDS} - _pg_t0)))" >&2
  return 0
}
