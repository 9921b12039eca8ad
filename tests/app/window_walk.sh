#!/usr/bin/env bash
# A scripted walk through the real window at 1280x720 under Xvfb, leaving an F12 screenshot at
# every stop for a person to look at (issue 22): the tour's first steps, free flight down the
# scale ladder from the SM to the campus and back, a selection, the what-if panel, the timeline
# with pause, step and speed; then in chapter 9 (the 405B training run) each fault kind injected
# through the what-if panel with the mouse while the simulation runs, the timeline scrubbed by
# dragging its slider, every overlay and the traffic. Booth mode has its own walk (booth_walk.sh).
# The clicks move and click in one go (as a touch does); their places are the panels' layout at
# 1280x720 (ui_layout.cpp, whatif_panel.cpp, timeline_panel.cpp).
# Exit 0 only when dcwalk exited 0 with zero validation errors, left every screenshot and took
# each fault. Not a ctest: it runs about two minutes, and its real output is the pictures.
# Usage: window_walk.sh DCWALK_EXE OUT_DIR
set -u
exe=$1
out=$2
. "$(dirname "$0")/xvfb_session.sh"
. "$(dirname "$0")/walk_common.sh"
start_xvfb window_walk 1280x720x24
mkdir -p "$out"
rm -f "$out"/dcwalk-*.png
log=$out/walk.log
DCWALK_VALIDATION=1 "$exe" tour --validation --size 1280x720 --captures "$out" >"$log" 2>&1 &
app=$!
wait_for_window window_walk "$log"
sleep 2
xdotool windowfocus --sync "$wid" 2>/dev/null || true
shots=0
shot() { xdotool key --window "$wid" F12; shots=$((shots + 1)); sleep 1.2; }
keys() { for k in "$@"; do xdotool key --window "$wid" "$k"; sleep 0.4; done; }
click() { xdotool mousemove --window "$wid" "$1" "$2" click 1; }
shot                                   # 1 the tour's first step
keys Next; sleep 2; shot               # 2
keys Next Next; sleep 2; shot          # 3
# A press beyond either end of the ladder does nothing: 13 each way (it has 12 rungs, and the
# tour starts off it, at a Xeon core) are sure to reach the campus and then the SM.
for _ in $(seq 13); do keys minus; sleep 1.8; done; shot                 # 4 out to the campus
for _ in $(seq 13); do keys equal; sleep 1.8; done; shot                 # 5 back in to the SM
keys Home; sleep 2.5
click 500 360; sleep 1; shot           # 6 a selection
keys Escape i; sleep 1; shot           # 7 the what-if panel
keys i p; sleep 0.5; shot              # 8 the timeline, paused
keys n n bracketright bracketright p; sleep 1; shot                      # 9 stepped, 4x speed
keys 9; sleep 3; keys i; sleep 1.5     # chapter 9, the what-if panel
for k in 0 1 2 3; do                   # 10-13 link down, PFC storm, pump trip, slow GPU
  click 900 284; sleep 0.8             # the fault kind's list ...
  click 870 $((317 + 23 * k)); sleep 0.8                                 # ... its k-th entry
  click 878 379; sleep 2.5; shot       # Inject at t = (now)
done
keys i; sleep 0.5
# Scrub: the slider's grab (at now, the right end) dragged to the middle and let go there.
xdotool mousemove --window "$wid" 741 546 mousedown 1
for x in 700 640 580 520 460 400 389; do xdotool mousemove --window "$wid" $x 546; sleep 0.1; done
sleep 0.3; shot                        # 14 dragging: "go to" about half of now
xdotool mouseup 1; sleep 0.6; shot     # 15 let go: it holds there while the host catches up
xdotool mousemove --window "$wid" 640 120; sleep 3; shot                 # 16 running on from it
for _ in 1 2 3 4 5 6; do keys o; sleep 0.8; shot; done                   # 17-22 every overlay
keys x; sleep 1.5; shot                # 23 traffic
keys Escape; sleep 0.3; keys Escape
wait_for_quit window_walk "Esc Esc"
failed=0
walk_verdict window_walk "$log" $shots "$out/dcwalk-*.png" || failed=1
for kind in "link down" "PFC pause storm" "pump trip" "slow GPU"; do
  grep -q "Injected: $kind" "$log" || { echo "window_walk: no '$kind' injected" >&2; failed=1; }
done
exit $((failed ? 1 : 0))
