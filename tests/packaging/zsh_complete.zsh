# zsh -f zsh_complete.zsh FPATH_DIR LINE
# Types LINE and a Tab into an interactive zsh (on a pseudo-terminal) whose completion system
# autoloads the functions in FPATH_DIR, and prints what the screen showed, escapes removed: how
# the completion tests see what a zsh user sees.
zmodload zsh/zpty || exit 3
zpty z 'zsh -f -i'
# No list_ambiguous: list the matches even when the Tab also inserts their common prefix.
zpty -w z "PS1='> '; bindkey -e; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D;" \
  "zstyle ':completion:*' format '%d'; unsetopt list_ambiguous; LISTMAX=100000; COLUMNS=160;" \
  "dcwalk() { :; }"
# After the Tab, Ctrl-A Ctrl-K clear the line (keys the terminal passes on, unlike Ctrl-U, which
# would erase typed-ahead text before zsh reads it) and a command prints a marker. zsh handles keys
# in order, so the marker's output comes after everything the Tab drew, however long completion
# takes: the reader waits for that, not for a quiet spell (which a slow or busy machine breaks).
zpty -w -n z "$2"$'\t\x01\x0b''print -r -- DONE$((6*7))DONE'$'\n'
out=""
while (( SECONDS < 300 )); do
  if zpty -r -t z chunk; then
    out+=$chunk
    [[ $out == *DONE42DONE* ]] && break
  else
    sleep 0.05
  fi
done
zpty -d z
[[ $out == *DONE42DONE* ]] || { print -r -- "zsh_complete.zsh: no marker within 300 s"; exit 4; }
# Keep what the Tab drew: up to zsh's echo of the marker command (the last; the terminal echoes
# typed-ahead keys before zsh reads them).
out=${out%print -r -- DONE*}
# An escape sequence becomes a space: the last match is not glued to the redrawn prompt.
print -r -- "$out" | tr '\r' ' ' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]/ /g; s/\x1b[>=]/ /g'
