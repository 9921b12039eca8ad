#!/usr/bin/env bash
# Drives `dcwalk` in a real window under Xvfb with xdotool: open, draw, a storm of 200 random
# resizes (some tiny, some back to back), 20 minimise/restore cycles, tour and flight keys, L and
# R (which must be saved to the settings file), the chapter menu, the what-if panel (I), an F12
# screenshot and an F9 clip; the window unmapped for 3 s must idle (under 0.5 s of CPU); a click
# selects, Esc clears the selection, the next Esc asks to confirm and the one after quits. Exit 0
# only when dcwalk exited 0 with zero Vulkan validation errors, the settings file holds the keys'
# choices and the captures are there (the MP4 where ffmpeg is installed, else its frames).
# Usage: window_session.sh DCWALK_EXE LOG_FILE
set -u
exe=$1
log=$2
. "$(dirname "$0")/xvfb_session.sh"
. "$(dirname "$0")/walk_common.sh"
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
# Unmapped, the window idles: CPU time (utime + stime, in clock ticks) over 3 s stays small.
cpu() { awk '{print $14 + $15}' "/proc/$app/stat"; }
xdotool windowunmap "$wid"; sleep 0.5
before=$(cpu); sleep 3; after=$(cpu)
xdotool windowmap "$wid"; sleep 0.5
ticks=$(getconf CLK_TCK)
if [ $(( (after - before) * 2 )) -gt "$ticks" ]; then
  echo "window_session: unmapped for 3 s it used $(( (after - before) * 1000 / ticks )) ms of CPU" >&2; exit 1
fi
# Selection: a click on the station in the middle, Esc clears it (no quit prompt yet), the next
# Esc asks to confirm, the third quits.
xdotool windowactivate "$wid" 2>/dev/null || true
xdotool mousemove --window "$wid" 400 225 click 1; sleep 0.5
xdotool key --window "$wid" Escape; sleep 0.5
kill -0 "$app" 2>/dev/null || { echo "window_session: the first Esc quit with a selection" >&2; exit 1; }
if grep -q "Esc drücken" "$log"; then
  echo "window_session: Esc did not clear the selection first" >&2; exit 1
fi
xdotool key --window "$wid" Escape
wait_for_log window_session "Esc drücken"                     # the quit confirmation
kill -0 "$app" 2>/dev/null || { echo "window_session: Esc quit without confirmation" >&2; exit 1; }
xdotool key --window "$wid" Escape
wait_for_quit window_session Esc
if grep -q "validation error" "$log"; then
  echo "window_session: validation errors:" >&2; grep "validation error" "$log" >&2; exit 1
fi
if [ "$(ls "$captures"/dcwalk-*.png 2>/dev/null | wc -l)" != 1 ]; then
  echo "window_session: F12 left no screenshot in $captures" >&2; exit 1
fi
if command -v ffmpeg >/dev/null && [ ! -s "$(ls "$captures"/dcwalk-*.mp4 2>/dev/null | head -n 1)" ]; then
  echo "window_session: F9 left no clip in $captures" >&2; grep dcwalk: "$log" >&2; exit 1
fi
if ! command -v ffmpeg >/dev/null && [ "$(ls "$captures"/dcwalk-*/frame-*.png 2>/dev/null | wc -l)" -lt 2 ]; then
  echo "window_session: without ffmpeg F9 left no frames in $captures" >&2; grep dcwalk: "$log" >&2; exit 1
fi
if ! grep -q '"language": "de"' "$DCWALK_SETTINGS" || ! grep -q '"reduced_motion": true' "$DCWALK_SETTINGS"; then
  echo "window_session: L and R were not saved to $DCWALK_SETTINGS:" >&2
  cat "$DCWALK_SETTINGS" >&2 2>/dev/null; exit 1
fi
exit $status
