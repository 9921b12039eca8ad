#!/usr/bin/env bash
# A scripted walk through the real window at 1280x720 under Xvfb, leaving an F12 screenshot at
# every stop for a person to look at (issue 22): the tour's first steps, free flight down the
# scale ladder from the SM to the campus and back, a selection, the what-if panel, the timeline
# with pause, step and speed, every overlay, the traffic. Not a ctest: its output is pictures.
# Usage: window_walk.sh DCWALK_EXE OUT_DIR
set -u
exe=$1
out=$2
. "$(dirname "$0")/xvfb_session.sh"
start_xvfb window_walk 1280x720x24
mkdir -p "$out"
log=$out/walk.log
DCWALK_VALIDATION=1 "$exe" tour --validation --size 1280x720 --captures "$out" >"$log" 2>&1 &
app=$!
wait_for_window window_walk "$log"
sleep 2
xdotool windowactivate "$wid" 2>/dev/null || true
xdotool windowfocus --sync "$wid" 2>/dev/null || true
shot() { xdotool key --window "$wid" F12; sleep 1.2; }
keys() { for k in "$@"; do xdotool key --window "$wid" "$k"; sleep 0.4; done; }
shot                                   # 1 the tour's first step
keys Next; sleep 2; shot               # 2
keys Next Next; sleep 2; shot          # 3
for _ in 1 2 3 4 5 6 7 8 9 10 11; do keys minus; sleep 1.8; done; shot   # 4 out to the campus
for _ in 1 2 3 4 5 6 7 8 9 10 11; do keys equal; sleep 1.8; done; shot   # 5 back in to the SM
keys Home; sleep 2.5
xdotool mousemove --window "$wid" 500 360 click 1; sleep 1; shot         # 6 a selection
keys Escape i; sleep 1; shot           # 7 the what-if panel
keys i t; sleep 0.5; keys p; sleep 0.5; shot                             # 8 timeline, paused
keys n n bracketright bracketright p; sleep 1; shot                      # 9 stepped, 4x speed
for _ in 1 2 3 4 5 6; do keys o; sleep 0.8; shot; done                   # 10-15 every overlay
keys x; sleep 1.5; shot                # 16 traffic
keys Escape Escape; sleep 0.3; keys Escape
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
kill "$app" 2>/dev/null; wait "$app" 2>/dev/null; app=
grep -c "validation error" "$log" | sed 's/^/validation errors: /'
ls "$out"/dcwalk-*.png | wc -l | sed 's/^/screenshots: /'
