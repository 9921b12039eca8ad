#!/usr/bin/env bash
# Booth mode in a real window under Xvfb, driven by xdotool: attract -> (key) tour -> (quiet)
# idle warning -> attract; Escape does not quit; presenter keys work; only
# Ctrl+Alt+Q ends it, with exit 0 and zero validation errors.
# Usage: kiosk_session.sh DCWALK_EXE LOG_FILE
set -u
exe=$1
log=$2
. "$(dirname "$0")/xvfb_session.sh"
start_xvfb kiosk_session 1024x600x24

# Monitor 3 does not exist under Xvfb: the booth must come up on the primary one all the same.
"$exe" tour --kiosk --monitor 3 --validation --kiosk-idle 3 --kiosk-warning 2 >"$log" 2>&1 &
app=$!
wait_for_window kiosk_session "$log"
# Full screen on its monitor at its native size (the Xvfb screen is 1024x600).
geometry() { xdotool getwindowgeometry "$wid" | sed -n 's/.*Geometry: //p'; }
full_screen() { [ "$(geometry)" = 1024x600 ]; }
wait_until kiosk_session "the booth is not full screen at 1024x600" full_screen
xdotool key --window "$wid" Escape 2>/dev/null                  # Escape starts the tour, never quits
wait_for_log kiosk_session "kiosk attract -> tour"
kill -0 "$app" 2>/dev/null || { echo "kiosk_session: Escape quit the kiosk" >&2; exit 1; }
for key in Next Next Prior 3; do xdotool key --window "$wid" "$key" 2>/dev/null; done
# B blanks to black (every pixel), B again shows the tour: each waited for on the screen itself.
mean() { import -window root "$tmp_dir/screen.png" && convert "$tmp_dir/screen.png" -colorspace gray -format "%[fx:mean]" info:; }
black() { awk -v m="$(mean)" 'BEGIN { exit !(m < 0.002) }'; }
lit() { awk -v m="$(mean)" 'BEGIN { exit !(m > 0.02) }'; }
xdotool key --window "$wid" b
wait_until kiosk_session "B did not blank the screen to black" black
xdotool key --window "$wid" b
wait_until kiosk_session "B again did not show the tour" lit
# Quiet: the warning after 3 s, attract after 2 more.
wait_for_log kiosk_session "kiosk idle_warning -> attract"
xdotool key --window "$wid" ctrl+alt+q
wait_until kiosk_session "Ctrl+Alt+Q did not quit" eval '! kill -0 "$app" 2>/dev/null'
wait "$app"
status=$?
app=
expected=("kiosk attract -> tour" "kiosk tour -> idle_warning" "kiosk idle_warning -> attract")
last=0
for line in "${expected[@]}"; do
  at=$(grep -n -F "$line" "$log" | head -n 1 | cut -d: -f1)
  [ -n "$at" ] && [ "$at" -gt "$last" ] || { echo "kiosk_session: missing '$line' in order" >&2; cat "$log" >&2; exit 1; }
  last=$at
done
if grep -q "validation error" "$log"; then grep "validation error" "$log" >&2; exit 1; fi
grep -q "no monitor 3" "$log" || { echo "kiosk_session: no word about the missing monitor" >&2; exit 1; }
exit $status
