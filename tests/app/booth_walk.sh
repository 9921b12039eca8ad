#!/usr/bin/env bash
# Booth mode walked at 1280x720 under Xvfb, leaving a screenshot of the whole screen at every stop
# for a person to look at (issue 22): the attract loop and its line, a key that wakes it (the
# how-to hint), presenter keys (the narration back), a chapter key, B blanking to black and back,
# Escape that does not quit, the idle warning's countdown, the attract loop again, Ctrl+Alt+Q.
# Exit 0 only when dcwalk exited 0 with zero validation errors, the states came in order, B
# blanked and every screenshot is there. Not a ctest (kiosk_session.sh checks the same states
# faster); its real output is the pictures.
# Usage: booth_walk.sh DCWALK_EXE OUT_DIR
set -u
exe=$1
out=$2
. "$(dirname "$0")/xvfb_session.sh"
. "$(dirname "$0")/walk_common.sh"
start_xvfb booth_walk 1280x720x24
mkdir -p "$out"
rm -f "$out"/booth-*.png
log=$out/booth.log
"$exe" tour --kiosk --validation --kiosk-idle 8 --kiosk-warning 6 >"$log" 2>&1 &
app=$!
wait_for_window booth_walk "$log"
shots=0
shot() {
  shots=$((shots + 1))
  import -window root "$out/booth-$(printf %02d $shots)-$1.png"
}
key() { xdotool key --window "$wid" "$1" 2>/dev/null; }
mean() { convert "$1" -colorspace gray -format "%[fx:mean]" info:; }
sleep 3; shot attract                  # the loop's first highlight and its line
sleep 12; shot attract-later           # it moves on by itself
key a; sleep 2; shot woken             # a key wakes it: the how-to hint
key Next; sleep 2.5; shot next         # the next step, with its line
key Next; sleep 2.5; shot next-again
key 3; sleep 3; shot chapter-3
key b; sleep 1; shot blanked
key b; sleep 1; shot shown
key Escape; sleep 1
kill -0 "$app" 2>/dev/null || { echo "booth_walk: Escape quit the booth" >&2; exit 1; }
sleep 8.5; shot still-there            # quiet for 8 s: the countdown
sleep 8; shot attract-again            # 6 s more: the loop again
key ctrl+alt+q
wait_for_quit booth_walk Ctrl+Alt+Q
failed=0
walk_verdict booth_walk "$log" $shots "$out/booth-*.png" || failed=1
blank=$(mean "$out"/booth-07-blanked.png)
shown=$(mean "$out"/booth-08-shown.png)
awk -v b="$blank" -v s="$shown" 'BEGIN { exit !(b < 0.002 && s > 0.02) }' ||
  { echo "booth_walk: B did not blank (mean grey $blank blanked, $shown shown)" >&2; failed=1; }
last=0
for line in "kiosk attract -> tour" "kiosk tour -> idle_warning" "kiosk idle_warning -> attract"; do
  at=$(grep -n -F "$line" "$log" | head -n 1 | cut -d: -f1)
  if [ -n "$at" ] && [ "$at" -gt "$last" ]; then last=$at; else
    echo "booth_walk: missing '$line' in order" >&2; failed=1
  fi
done
exit $((failed ? 1 : 0))
