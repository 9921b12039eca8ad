#!/usr/bin/env bash
# Drives `dcwalk` in a real window under Xvfb with xdotool: open, draw, a storm of 200 random
# resizes (some tiny, some back to back), 20 minimise/restore cycles, tour and flight keys, L and
# R (which must be saved to the settings file), the chapter menu, the what-if panel (I), an F12
# screenshot and an F9 clip, then quit with Esc. Exit 0 only when dcwalk exited 0 with zero Vulkan validation errors,
# the settings file holds the keys' choices and the captures are there (the clip where ffmpeg is
# installed).
# Usage: window_session.sh DCWALK_EXE LOG_FILE
set -u
exe=$1
log=$2
. "$(dirname "$0")/xvfb_session.sh"
start_xvfb window_session 1600x1000x24

captures=$settings_dir/captures
DCWALK_VALIDATION=1 "$exe" tour --validation --size 800x450 --captures "$captures" >"$log" 2>&1 &
app=$!
wait_for_window window_session "$log"
sleep 1
RANDOM=2026  # the same storm every run
for i in $(seq 200); do
  xdotool windowsize "$wid" $((1 + RANDOM % 1500)) $((1 + RANDOM % 950))
  case $((i % 4)) in 0) sleep 0.1 ;; 1) sleep 0.02 ;; *) ;; esac  # some back to back
done
for i in $(seq 20); do
  xdotool windowminimize "$wid"; sleep 0.1
  xdotool windowunmap "$wid"; sleep 0.2
  xdotool windowmap "$wid"; sleep 0.2
done
xdotool windowsize "$wid" 800 450; sleep 0.3
xdotool windowactivate "$wid" 2>/dev/null || true
xdotool windowfocus --sync "$wid" 2>/dev/null || true
for key in Next Next Prior minus equal 3 o l r m m i i F12 F9; do
  xdotool key --window "$wid" "$key" 2>/dev/null; sleep 0.3
done
sleep 1; xdotool key --window "$wid" F9; sleep 1  # about a second of clip
xdotool key --window "$wid" Escape
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app" 2>/dev/null; then echo "window_session: dcwalk did not quit on Esc" >&2; exit 1; fi
wait "$app"
status=$?
app=
if grep -q "validation error" "$log"; then
  echo "window_session: validation errors:" >&2; grep "validation error" "$log" >&2; exit 1
fi
if [ "$(ls "$captures"/dcwalk-*.png 2>/dev/null | wc -l)" != 1 ]; then
  echo "window_session: F12 left no screenshot in $captures" >&2; exit 1
fi
if command -v ffmpeg >/dev/null && [ ! -s "$(ls "$captures"/dcwalk-*.mp4 2>/dev/null | head -n 1)" ]; then
  echo "window_session: F9 left no clip in $captures" >&2; grep dcwalk: "$log" >&2; exit 1
fi
if ! grep -q '"language": "de"' "$DCWALK_SETTINGS" || ! grep -q '"reduced_motion": true' "$DCWALK_SETTINGS"; then
  echo "window_session: L and R were not saved to $DCWALK_SETTINGS:" >&2
  cat "$DCWALK_SETTINGS" >&2 2>/dev/null; exit 1
fi
exit $status
