#!/usr/bin/env bash
# A click on a panel is the panel's only (issue 22): the pointer moved onto the what-if panel's
# Inject button and clicked in one go, as a touch screen or a quick hand does, injects the fault
# and selects nothing behind the panel (chapter 9 has a rack there). The selection is read from
# Esc: with one, the second Esc (the first closes the panel) clears it silently; without, it asks
# whether to quit. The button's place is the what-if panel's layout at 1280x720 (ui_layout.cpp).
# Usage: window_clicks.sh DCWALK_EXE LOG_FILE
set -u
exe=$1
log=$2
. "$(dirname "$0")/xvfb_session.sh"
. "$(dirname "$0")/walk_common.sh"
start_xvfb window_clicks 1280x720x24
DCWALK_VALIDATION=1 "$exe" tour --validation --size 1280x720 >"$log" 2>&1 &
app=$!
wait_for_window window_clicks "$log"
# The right column, where chapter 9's panel and then the what-if panel stand, as a hash of its
# pixels; it holds still once drawn and settled (the simulation paused, the camera landed). Waits
# on what is on screen, never on a guess of how long a busy machine takes.
column() {
  import -window root -crop 480x700+790+10 +repage "$tmp_dir/column.png" 2>/dev/null &&
    identify -format "%#" "$tmp_dir/column.png"
}
steady() { local a; a=$(column) && sleep 0.5 && [ -n "$a" ] && [ "$a" = "$(column)" ]; }
changed_from() { [ "$(column)" != "$1" ]; }
xdotool mousemove --window "$wid" 10 10
xdotool key --window "$wid" 9
xdotool key --window "$wid" p                                   # pause: the panels hold still
wait_until window_clicks "chapter 9 never held still" steady
before=$(column)
xdotool key --window "$wid" i
wait_until window_clicks "the what-if panel never appeared" changed_from "$before"
wait_until window_clicks "the what-if panel never held still" steady
xdotool mousemove --window "$wid" 878 379 click 1             # Inject at t = ...
xdotool mousemove --window "$wid" 10 10
wait_for_log window_clicks "Injected:"                        # the click on Inject landed
xdotool key --window "$wid" Escape; sleep 0.5                 # closes the what-if panel
xdotool key --window "$wid" Escape
# Only with nothing selected does the second Esc ask to quit: the click selected nothing behind.
wait_for_log window_clicks "Press Esc again"
xdotool key --window "$wid" Escape
wait_for_quit window_clicks Esc
if grep -q "validation error" "$log"; then grep "validation error" "$log" >&2; exit 1; fi
exit $status
