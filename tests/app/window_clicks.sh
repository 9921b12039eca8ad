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
sleep 2
xdotool mousemove --window "$wid" 10 10
xdotool key --window "$wid" 9; sleep 3
xdotool key --window "$wid" i; sleep 2
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
