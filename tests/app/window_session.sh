#!/usr/bin/env bash
# Drives `dcwalk` in a real window under Xvfb with xdotool: open, draw, 20 resizes, minimise and
# restore, station keys, then quit with Esc. Exit 0 only when dcwalk exited 0 with zero Vulkan
# validation errors. Usage: window_session.sh DCWALK_EXE LOG_FILE
set -u
exe=$1
log=$2
. "$(dirname "$0")/xvfb_session.sh"
start_xvfb window_session 90 140 1600x1000x24

DCWALK_VALIDATION=1 "$exe" tour --validation --size 800x450 >"$log" 2>&1 &
app=$!
wait_for_window window_session "$log"
sleep 1
for i in $(seq 20); do
  xdotool windowsize "$wid" $((320 + (i * 37) % 900)) $((200 + (i * 53) % 600))
  sleep 0.15
done
xdotool windowminimize "$wid"; sleep 0.5
xdotool windowunmap "$wid"; sleep 0.5
xdotool windowmap "$wid"; sleep 0.5
xdotool windowactivate "$wid" 2>/dev/null || true
xdotool windowfocus --sync "$wid" 2>/dev/null || true
for key in Next Next Prior minus equal 3; do xdotool key --window "$wid" "$key" 2>/dev/null; sleep 0.3; done
xdotool key --window "$wid" Escape
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app" 2>/dev/null; then echo "window_session: dcwalk did not quit on Esc" >&2; exit 1; fi
wait "$app"
status=$?
app=
if grep -q "validation error" "$log"; then
  echo "window_session: validation errors:" >&2; grep "validation error" "$log" >&2; exit 1
fi
exit $status
