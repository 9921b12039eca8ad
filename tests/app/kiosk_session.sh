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
sleep 1
# Full screen on its monitor at its native size (the Xvfb screen is 1024x600).
geometry=$(xdotool getwindowgeometry "$wid" | sed -n 's/.*Geometry: //p')
[ "$geometry" = 1024x600 ] || { echo "kiosk_session: the booth is $geometry, not 1024x600" >&2; exit 1; }
xdotool key --window "$wid" Escape 2>/dev/null; sleep 1          # Escape starts the tour, never quits
kill -0 "$app" 2>/dev/null || { echo "kiosk_session: Escape quit the kiosk" >&2; exit 1; }
for key in Next Next Prior 3; do xdotool key --window "$wid" "$key" 2>/dev/null; sleep 0.3; done
# B blanks to black (every pixel), B again shows the tour.
mean() { import -window root "$tmp_dir/screen.png" && convert "$tmp_dir/screen.png" -colorspace gray -format "%[fx:mean]" info:; }
xdotool key --window "$wid" b; sleep 1
blank=$(mean)
xdotool key --window "$wid" b; sleep 1
shown=$(mean)
awk -v b="$blank" -v s="$shown" 'BEGIN { exit !(b < 0.002 && s > 0.02) }' ||
  { echo "kiosk_session: B did not blank to black (mean grey $blank blanked, $shown shown)" >&2; exit 1; }
sleep 8                                                # quiet: warning after 3 s, attract after 2 more
xdotool key --window "$wid" ctrl+alt+q
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app" 2>/dev/null; then echo "kiosk_session: Ctrl+Alt+Q did not quit" >&2; exit 1; fi
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
