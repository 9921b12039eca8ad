# Sourced by the window walks and checks after xvfb_session.sh: how a walk ends.
#   wait_for_quit NAME HOW           waits (xvfb_session.sh's bound) for $app to exit after HOW (the keys that
#                                    quit) and sets $status to its exit status; a dcwalk still
#                                    running fails the walk
#   walk_verdict NAME LOG SHOTS GLOB prints the validation errors in LOG and how many of the SHOTS
#                                    screenshots GLOB finds; true when none, all and exit status 0
wait_for_quit() {
  wait_until "$1" "dcwalk did not quit on $2" eval '! kill -0 "$app" 2>/dev/null'
  wait "$app"
  status=$?
  app=
}

walk_verdict() {
  local name=$1 log=$2 shots=$3 glob=$4 errors left
  errors=$(grep -c "validation error" "$log")
  left=$(ls $glob 2>/dev/null | wc -l)
  echo "validation errors: $errors"
  echo "screenshots: $left of $shots"
  [ "$status" = 0 ] || echo "$name: dcwalk exited $status" >&2
  [ "$errors" = 0 ] && [ "$left" = "$shots" ] && [ "$status" = 0 ]
}
