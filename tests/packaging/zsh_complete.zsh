# zsh -f zsh_complete.zsh FPATH_DIR LINE
# Types LINE and a Tab into an interactive zsh (on a pseudo-terminal) whose completion system
# autoloads the functions in FPATH_DIR, and prints what the screen showed, escapes removed: how
# the completion tests see what a zsh user sees.
zmodload zsh/zpty || exit 3
zpty z 'zsh -f -i'
# No list_ambiguous: list the matches even when the Tab also inserts their common prefix.
zpty -w z "PS1='> '; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D;" \
  "zstyle ':completion:*' format '%d'; unsetopt list_ambiguous; LISTMAX=100000; COLUMNS=160;" \
  "dcwalk() { :; }"
zpty -w -n z "$2"$'\t'
# Read until the screen has been quiet for half a second (ten seconds at most).
out="" quiet=0
for i in {1..100}; do
  sleep 0.1
  if zpty -r -t z chunk; then
    out+=$chunk quiet=0
    while zpty -r -t z chunk; do out+=$chunk; done
  elif (( ++quiet >= 5 )); then
    break
  fi
done
zpty -d z
# An escape sequence becomes a space: the last match is not glued to the redrawn prompt.
print -r -- "$out" | tr '\r' ' ' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]/ /g; s/\x1b[>=]/ /g'
