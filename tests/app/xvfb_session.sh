# Sourced by the window tests: starts a private Xvfb and gives the helpers they share.
#   start_xvfb NAME FIRST_DISPLAY LAST_DISPLAY WxHxD   exports DISPLAY and a private
#                                                      DCWALK_SETTINGS; Xvfb and $app die on exit
#   wait_for_window NAME LOG                           sets $wid to dcwalk's window
start_xvfb() {
  local name=$1 first=$2 last=$3 screen=$4 n
  for tool in Xvfb xdotool; do
    command -v $tool >/dev/null || { echo "$name: $tool is not installed" >&2; exit 3; }
  done
  for n in $(seq "$first" "$last"); do  # a display number nobody uses
    [ -e /tmp/.X11-unix/X$n ] || [ -e /tmp/.X$n-lock ] || { display=:$n; break; }
  done
  Xvfb "$display" -screen 0 "$screen" -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  settings_dir=$(mktemp -d)
  trap 'kill "$xvfb" 2>/dev/null; [ -n "${app:-}" ] && kill "$app" 2>/dev/null; rm -rf "$settings_dir"' EXIT
  export DISPLAY=$display
  export DCWALK_SETTINGS=$settings_dir/settings.json  # never the user's own file
  for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.1; done
}

wait_for_window() {
  wid=$(timeout 60 xdotool search --sync --name '^dcwalk$' | head -n 1)
  [ -n "$wid" ] || { echo "$1: no dcwalk window appeared" >&2; cat "$2" >&2; exit 1; }
}
