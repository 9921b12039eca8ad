
# The completion itself (packaging/completion.bash, appended to the generated tables above).
_dcwalk() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local path=dcwalk word option="" position=0 i
  # Walk the words before the cursor: subcommands extend the path, an option that takes a value
  # swallows the next word, anything else is a positional argument.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -n $option ]]; then
      option=""
      continue
    fi
    if [[ $word == -* ]]; then
      # `tour` is the default command: `dcwalk --kiosk` means `dcwalk tour --kiosk`.
      if [[ $path == dcwalk && " ${_dcwalk_options[dcwalk]} " != *" $word "* ]]; then
        path="dcwalk tour"
      fi
      [[ -n ${_dcwalk_takes_value["$path|$word"]+set} ]] && option=$word
      continue
    fi
    if [[ " ${_dcwalk_commands[$path]} " == *" $word "* ]]; then
      path="$path $word"
      position=0
    else
      position=$((position + 1))
    fi
  done

  local key words=""
  if [[ -n $option ]]; then
    key="$path|$option"
  elif [[ $cur == -* ]]; then
    words=${_dcwalk_options[$path]}
    [[ $path == dcwalk ]] && words+=" ${_dcwalk_options[dcwalk tour]}"
    mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
    return 0
  else
    key="$path|#$((position + 1))"
    words=${_dcwalk_commands[$path]}
  fi
  words+=" ${_dcwalk_words[$key]-}"
  mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
  if [[ -n ${_dcwalk_files[$key]+set} ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
  fi
  return 0
}
complete -F _dcwalk dcwalk
