# Sourced by the window tests: starts a private Xvfb and gives the helpers they share.
#   start_xvfb NAME WxHxD    exports DISPLAY and a private DCWALK_SETTINGS; Xvfb and $app die
#                            on exit
#   wait_for_window NAME LOG sets $wid to dcwalk's window
#   wait_for_log NAME TEXT   waits until dcwalk's log ($log) holds TEXT (a generous bound, not a
#                            guess at how long a busy machine takes); fails the session without it
#   wait_until NAME WHAT CMD runs CMD until it succeeds (the same bound); fails naming WHAT
start_xvfb() {
  local name=$1 screen=$2 n
  for tool in Xvfb xdotool; do
    command -v $tool >/dev/null || { echo "$name: $tool is not installed" >&2; exit 3; }
  done
  tmp_dir=$(mktemp -d)
  trap 'kill "$xvfb" 2>/dev/null; [ -n "${app:-}" ] && kill "$app" 2>/dev/null; rm -rf "$tmp_dir"' EXIT
  # Xvfb picks a free display number itself (-displayfd) and writes it once it is serving, so
  # tests running at the same time never race for one.
  Xvfb -displayfd 3 -screen 0 "$screen" -nolisten tcp 3>"$tmp_dir/display" >/dev/null 2>&1 &
  xvfb=$!
  for _ in $(seq 100); do
    n=$(cat "$tmp_dir/display" 2>/dev/null)
    [ -n "$n" ] && break
    kill -0 "$xvfb" 2>/dev/null || { echo "$name: Xvfb did not start" >&2; exit 3; }
    sleep 0.1
  done
  [ -n "$n" ] || { echo "$name: Xvfb gave no display number" >&2; exit 3; }
  export DISPLAY=:$n
  export DCWALK_SETTINGS=$tmp_dir/settings.json  # never the user's own file
  settings_dir=$tmp_dir
}

wait_for_window() {
  wid=$(timeout 60 xdotool search --sync --name '^dcwalk$' | head -n 1)
  [ -n "$wid" ] || { echo "$1: no dcwalk window appeared" >&2; cat "$2" >&2; exit 1; }
}

# 240 s: far more than any step takes on a loaded 2-core machine, short of a hang.
WAIT_BOUND_S=240

wait_until() {
  local name=$1 what=$2 started=$SECONDS
  shift 2
  until "$@"; do
    if (( SECONDS - started > WAIT_BOUND_S )); then
      echo "$name: $what: not within $WAIT_BOUND_S s" >&2; cat "$log" >&2; exit 1
    fi
    sleep 0.2
  done
}

wait_for_log() {
  wait_until "$1" "no '$2' in dcwalk's output" grep -q -F -- "$2" "$log"
}
