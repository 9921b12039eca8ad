#!/usr/bin/env bash
# packaging/check-in-fresh-root.sh [PROJECT_DIR]
# The whole install check, on two brand-new minimal Debian 12 roots (fresh-debian-check from
# ../shared/tools or $DCWALK_SHARED/tools, or $FRESH_DEBIAN_CHECK; needs root, takes minutes):
#   1. the first root builds the package from a clean clone of the committed HEAD with
#      scripts/package, which installs the build tools itself and fails on any lintian error;
#   2. the second root, which has no build tools, gets only that .deb: packaging/installed-check.sh
#      installs it with apt-get and runs it there (see that script for what it checks).
# Prints both roots' output. Exit status 0 when both pass, 1 when one fails, 2 when it cannot run.
set -uo pipefail
proj=$(cd "${1:-$(dirname "$0")/..}" && git rev-parse --show-toplevel) || exit 2
check=${FRESH_DEBIAN_CHECK:-${DCWALK_SHARED:-$proj/../shared}/tools/fresh-debian-check}
[ -x "$check" ] || { echo "check-in-fresh-root: no fresh-debian-check at $check" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "check-in-fresh-root: needs root (fresh-debian-check does)" >&2; exit 2; }
work=$(mktemp -d /var/tmp/dcwalk-package-check.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "=== root 1 of 2: build the package (scripts/package, lintian)"
"$check" --keep "$proj" -- scripts/package 2>&1 | tee "$work/build.log"
status=${PIPESTATUS[0]}
# The kept root holds the .deb; fresh-debian-check has unmounted it. Take the .deb, drop the root.
kept=$(sed -n 's|^kept: \(/var/tmp/fresh-root\.[A-Za-z0-9]*\)$|\1|p' "$work/build.log" | tail -n 1)
if [ -n "$kept" ]; then
  for m in dev/pts dev proc sys; do
    if mountpoint -q "$kept/$m"; then
      echo "check-in-fresh-root: $kept/$m is still mounted; left in place" >&2
      exit 1
    fi
  done
  mkdir -p "$work/shared"
  cp "$kept"/src/project/build/package/dcwalk_*.deb "$work/shared/" 2>/dev/null
  rm -rf "$kept"
fi
[ "$status" = 0 ] || { echo "check-in-fresh-root: FAILED building the package"; exit 1; }
ls "$work"/shared/dcwalk_*.deb >/dev/null 2>&1 || {
  echo "check-in-fresh-root: FAILED: the first root left no build/package/dcwalk_*.deb"; exit 1; }

echo "=== root 2 of 2: install the .deb where nothing was built, and run it"
# The second root's /src/shared holds only the .deb; the clone brings installed-check.sh.
SHARED_DIR="$work/shared" "$check" "$proj" -- "packaging/installed-check.sh /src/shared" ||
  { echo "check-in-fresh-root: FAILED in the installing root"; exit 1; }
echo "check-in-fresh-root: both roots passed"
