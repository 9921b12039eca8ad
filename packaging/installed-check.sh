#!/usr/bin/env bash
# packaging/installed-check.sh DIR
# Run as root where dcwalk was never built (check-in-fresh-root.sh runs it in a brand-new Debian
# 12 root): installs DIR/dcwalk_*.deb with apt-get, then checks the installed program the way a
# booth PC uses it: no build tools anywhere; `dpkg -L dcwalk` only under /usr and /etc; a shot, a
# scenario as JSON and the headless tour work; settings and the pipeline cache land in the XDG
# folders and nothing beside the program; `man dcwalk`, the bash and the zsh completions list
# every subcommand (and the completions every station); the desktop entries validate.
set -euo pipefail
dir=$(cd "${1:?usage: installed-check.sh DIR_WITH_THE_DEB}" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "installed-check: FAILED: $*" >&2; exit 1; }
step() { echo "--- $*"; }
no_build_tools() {
  for tool in cc gcc g++ c++ clang cmake ninja make glslc; do
    ! command -v "$tool" >/dev/null || fail "a build tool is installed: $(command -v "$tool")"
  done
}
apt_install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }

step "no build tools here"
no_build_tools
debs=("$dir"/dcwalk_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "want one dcwalk_*.deb in $dir"
step "apt-get install ./$(basename "${debs[0]}")"
apt-get update -qq
(cd "$dir" && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$(basename "${debs[0]}")") \
  >"$dir/apt.log" 2>&1 || { tail -n 20 "$dir/apt.log"; fail "apt-get install"; }
dpkg-query -W -f='${Package} ${Version}: ${Depends}\n' dcwalk
no_build_tools  # its dependencies brought none either

step "dpkg -L dcwalk: only /usr and /etc"
outside=$(dpkg -L dcwalk | grep -v -E '^/(usr|etc)(/|$)' | grep -v -x '/\.' || true)
[ -z "$outside" ] || fail "installed outside /usr and /etc: $outside"
dpkg -L dcwalk | grep -c . | sed 's/^/files and folders: /'

work=$(mktemp -d /tmp/dcwalk-installed.XXXXXX)
export HOME=$work/home
mkdir -p "$HOME" "$work/run"
cd "$work/run"
marker=$work/marker
touch "$marker"
sleep 1  # file times have one-second steps on some file systems

step "dcwalk --version"
dcwalk --version
step "dcwalk shot --station rack"
dcwalk shot --station rack
[ "$(head -c 8 shot.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "shot.png is no PNG"
step "dcwalk sim --scenario llama70b-inference-h100 --json"
dcwalk sim --scenario llama70b-inference-h100 --json >sim.json
grep -q '"name": "llama70b-inference-h100"' sim.json || fail "sim.json does not name the scenario"
step "dcwalk tour --headless"
dcwalk tour --headless --out tour
[ -s tour/contact-sheet.png ] || fail "the headless tour left no contact sheet"
frames=$(ls tour/*.png | wc -l)
[ "$frames" -ge 11 ] || fail "the headless tour wrote $frames images"
step "dcwalk settings set language de"
dcwalk settings set language de
[ -s "$HOME/.config/dcwalk/settings.json" ] || fail "no ~/.config/dcwalk/settings.json"
[ -s "$HOME/.cache/dcwalk/pipeline-cache.bin" ] || fail "no ~/.cache/dcwalk/pipeline-cache.bin"
step "nothing written beside the program"
written=$(find /usr /etc -newer "$marker" -not -type d 2>/dev/null || true)
[ -z "$written" ] || fail "dcwalk wrote into the system: $written"

# Every command path ("asset check"), from the --help texts.
paths() {  # paths [PATH...]
  local sub
  for sub in $(dcwalk "$@" --help | awk '/^Subcommands:/ {s = 1; next} /^[^ ]/ {s = 0}
                                        s && /^  [^ ]/ {print $1}'); do
    echo "$* $sub" | sed 's/^ //'
    paths "$@" "$sub"
  done
}
mapfile -t all < <(paths)
top=$(dcwalk --help | awk '/^Subcommands:/ {s = 1; next} /^[^ ]/ {s = 0} s && /^  [^ ]/ {print $1}' | sort)
stations=$(dcwalk stations | awk '{print $1}' | sort)
echo "commands: ${all[*]/%/,}"

step "man dcwalk lists every command"
apt_install man-db
no_build_tools
page=$(MANWIDTH=400 man dcwalk 2>&1)
for p in "${all[@]}"; do
  grep -q -E "^   dcwalk $p( |\$)" <<<"$page" || fail "man dcwalk has no section for 'dcwalk $p'"
done

step "bash completion: every command and station"
complete_bash() {  # complete_bash WORD...: what bash offers for the last word
  bash --norc --noprofile -c 'source /usr/share/bash-completion/completions/dcwalk
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dcwalk; printf "%s\n" "${COMPREPLY[@]}"' _ "$@" |
    sort
}
[ "$(complete_bash dcwalk '')" = "$top" ] || fail "bash offers '$(complete_bash dcwalk '' | xargs)'"
[ "$(complete_bash dcwalk shot --station '')" = "$stations" ] || fail "bash: stations"
for p in "${all[@]}"; do
  read -r -a words <<<"$p"
  want=$(dcwalk "${words[@]}" --help | awk '/^Subcommands:/ {s = 1; next} /^[^ ]/ {s = 0}
                                         s && /^  [^ ]/ {print $1}' | sort)
  [ -z "$want" ] || [ "$(complete_bash dcwalk "${words[@]}" '')" = "$want" ] ||
    fail "bash: the subcommands of 'dcwalk $p'"
done

step "zsh completion: every command and station"
apt_install zsh
no_build_tools
screen=$(zsh -f "$here/tests/packaging/zsh_complete.zsh" /usr/share/zsh/vendor-completions 'dcwalk ')
for c in $top; do grep -q -w -- "$c" <<<"$screen" || fail "zsh does not offer '$c'"; done
screen=$(zsh -f "$here/tests/packaging/zsh_complete.zsh" /usr/share/zsh/vendor-completions \
  'dcwalk shot --station ')
for s in $stations; do grep -q -w -- "$s" <<<"$screen" || fail "zsh does not offer station '$s'"; done

step "desktop entries validate"
apt_install desktop-file-utils
no_build_tools
desktop-file-validate /usr/share/applications/dcwalk.desktop /usr/share/applications/dcwalk-booth.desktop
grep -h '^Exec=' /usr/share/applications/dcwalk*.desktop

echo "installed-check: all passed"
