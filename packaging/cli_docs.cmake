# cmake -DEXE=dcwalk -DOUT_DIR=DIR -DVERSION=V -DDATE=YYYY-MM-DD -DDATADIR=D -DMAN_TEMPLATE=F
#       -P cli_docs.cmake
# Writes DIR/dcwalk.1 (the man page), DIR/dcwalk.bash and DIR/_dcwalk (bash and zsh completions)
# from `dcwalk --cli-reference`, the program's own description of its command line (the same
# CLI11 definitions --help prints, app/cli/cli_reference.h). A new subcommand, option, station,
# scenario or tour shows up in all three at the next build; nothing here names one.
cmake_minimum_required(VERSION 3.24)
foreach(var EXE OUT_DIR VERSION DATE DATADIR MAN_TEMPLATE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "cli_docs.cmake: -D${var}=... is missing")
  endif()
endforeach()

execute_process(COMMAND "${EXE}" --cli-reference OUTPUT_VARIABLE reference ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --cli-reference failed (${rc}): ${err}")
endif()

# --- small JSON helpers (string(JSON) throws on a missing member; these say where) ----------
function(json_get out json)
  string(JSON value ERROR_VARIABLE error GET "${json}" ${ARGN})
  if(error)
    message(FATAL_ERROR "cli_docs.cmake: --cli-reference has no ${ARGN}: ${error}")
  endif()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# The last index of the array at ARGN, -1 when empty (for foreach(RANGE) guards).
function(json_last out json)
  string(JSON n LENGTH "${json}" ${ARGN})
  math(EXPR last "${n} - 1")
  set(${out} ${last} PARENT_SCOPE)
endfunction()

# The strings of the array at ARGN joined by `sep`.
function(json_join out sep json)
  json_last(last "${json}" ${ARGN})
  set(text "")
  if(last GREATER_EQUAL 0)
    foreach(i RANGE ${last})
      json_get(item "${json}" ${ARGN} ${i})
      if(i GREATER 0)
        string(APPEND text "${sep}")
      endif()
      string(APPEND text "${item}")
    endforeach()
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# --- escaping ------------------------------------------------------------------------------
# roff: backslashes, hyphens as minus signs (so option names copy and paste), and no text line
# may start with a control character.
function(roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# A word inside shell single quotes.
function(squote out text)
  string(REPLACE "'" "'\\''" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# zsh _arguments and _describe descriptions: brackets and colons are syntax there, and $ and `
# must not expand.
function(zsh_text out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  foreach(c "[" "]" ":" "$" "`")
    string(REPLACE "${c}" "\\${c}" text "${text}")
  endforeach()
  squote(text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(emit property text)
  set_property(GLOBAL APPEND_STRING PROPERTY ${property} "${text}")
endfunction()

# --- one option or positional: its man page entry and completion specs ---------------------
# Sets in the caller: o_names (space separated), o_value (0/1), o_words (completion values),
# o_files (0/1), o_repeat (0/1), o_shown, o_count.
macro(read_entry json kind i)
  string(JSON o_has_value ERROR_VARIABLE o_no_value GET "${json}" ${kind} ${i} value)
  if(o_no_value)
    set(o_value 0)
    set(o_words "")
    set(o_files 0)
    set(o_repeat 0)
    set(o_shown "")
    set(o_count 1)
    set(o_default "")
  else()
    set(o_value 1)
    json_join(o_words " " "${json}" ${kind} ${i} value values)
    json_get(o_files "${json}" ${kind} ${i} value files)
    json_get(o_shown "${json}" ${kind} ${i} value shown)
    json_get(o_repeat "${json}" ${kind} ${i} repeatable)
    json_get(o_count "${json}" ${kind} ${i} count)
    json_get(o_default "${json}" ${kind} ${i} default)
    if(o_files STREQUAL "ON" OR o_files STREQUAL "true")
      set(o_files 1)
    else()
      set(o_files 0)
    endif()
    if(o_repeat STREQUAL "ON" OR o_repeat STREQUAL "true")
      set(o_repeat 1)
    else()
      set(o_repeat 0)
    endif()
  endif()
  json_get(o_description "${json}" ${kind} ${i} description)
  if("${kind}" STREQUAL "options")
    json_join(o_names " " "${json}" ${kind} ${i} names)
  else()
    json_get(o_names "${json}" ${kind} ${i} name)
  endif()
endmacro()

# The man page's text after an option's tag: description, default and the values it takes.
function(man_body out)
  roff(text "${o_description}")
  if(NOT o_default STREQUAL "")
    roff(d "${o_default}")
    string(APPEND text " (default: ${d})")
  endif()
  if(NOT o_words STREQUAL "" AND NOT o_shown MATCHES "\\|")
    string(REPLACE " " ", " w "${o_words}")
    roff(w "${w}")
    string(APPEND text ". Values: ${w}")
  endif()
  set(${out} "\\&${text}\n" PARENT_SCOPE)
endfunction()

# The bash tables' entries for the value at `key` ("dcwalk shot|--station", "dcwalk asset
# check|#1"): its words, and whether it is a file.
function(bash_values key)
  if(NOT o_words STREQUAL "")
    emit(BASH_WORDS "  ['${key}']='${o_words}'\n")
  endif()
  if(o_files)
    emit(BASH_FILES "  ['${key}']=1\n")
  endif()
endfunction()

# The zsh action completing a value: words, files, both, or none (just the message).
function(zsh_action out message)
  string(REPLACE ":" " " message "${message}")
  squote(message "${message}")
  if(NOT o_words STREQUAL "" AND o_files)
    # {...}: run as it is (a plain command would get compadd's options); _arguments splits the
    # spec at colons, so the action's own are escaped.
    set(action "{_alternative '\\''names\\:name\\:(${o_words})'\\'' '\\''files\\:file\\:_files'\\''}")
  elseif(NOT o_words STREQUAL "")
    set(action "(${o_words})")
  elseif(o_files)
    set(action "_files")
  else()
    set(action " ")
  endif()
  set(${out} "${message}:${action}" PARENT_SCOPE)
endfunction()

# --- one (sub)command, recursively ---------------------------------------------------------
function(walk json)
  json_get(path "${json}" path)
  json_get(description "${json}" description)
  if(path STREQUAL "")
    set(full "dcwalk")
  else()
    set(full "dcwalk ${path}")
  endif()
  string(REPLACE " " "__" zsh_function "_${full}")
  string(REGEX REPLACE "^_dcwalk$" "_dcwalk" zsh_function "${zsh_function}")
  json_last(last_option "${json}" options)
  json_last(last_positional "${json}" positionals)
  json_last(last_command "${json}" commands)

  # Subcommand names (bash table; zsh _describe list; man page list for the top level).
  set(commands "")
  set(zsh_commands "")
  set(zsh_dispatch "")
  if(last_command GREATER_EQUAL 0)
    foreach(i RANGE ${last_command})
      json_get(name "${json}" commands ${i} name)
      json_get(sub_description "${json}" commands ${i} description)
      list(APPEND commands "${name}")
      zsh_text(d "${sub_description}")
      string(APPEND zsh_commands "    '${name}:${d}'\n")
      string(REPLACE " " "__" sub_function "_${full} ${name}")
      string(APPEND zsh_dispatch "        (${name}) ${sub_function} ;;\n")
      if(path STREQUAL "")
        roff(d "${sub_description}")
        emit(MAN_LIST ".TP\n.B ${name}\n\\&${d}\n")
      endif()
    endforeach()
  endif()
  string(REPLACE ";" " " commands "${commands}")
  emit(BASH_COMMANDS "  ['${full}']='${commands}'\n")

  # The man page's heading: dcwalk asset check FILE, dcwalk asset COMMAND.
  set(usage "${full}")
  if(last_command GREATER_EQUAL 0)
    string(APPEND usage " [COMMAND]")
  endif()
  if(last_option GREATER 0)
    string(APPEND usage " [OPTIONS]")
  endif()

  set(man_entries "")
  set(bash_options "")
  set(zsh_specs "")
  if(last_option GREATER_EQUAL 0)
    foreach(i RANGE ${last_option})
      read_entry("${json}" options ${i})
      string(APPEND bash_options " ${o_names}")
      string(REPLACE " " ";" name_list "${o_names}")
      # man: \fB\-o\fR, \fB\-\-out\fR \fITEXT\fR
      set(tag "")
      foreach(n IN LISTS name_list)
        roff(rn "${n}")
        if(NOT tag STREQUAL "")
          string(APPEND tag ", ")
        endif()
        string(APPEND tag "\\fB${rn}\\fR")
        if(o_value)
          emit(BASH_VALUE "  ['${full}|${n}']=1\n")
          bash_values("${full}|${n}")
        endif()
      endforeach()
      if(o_value)
        roff(shown "${o_shown}")
        string(APPEND tag " \\fI${shown}\\fR")
        if(o_repeat)
          string(APPEND tag " ...")
        endif()
      endif()
      # Each command's -h/--help is said once, under COMMANDS.
      if(NOT (o_names STREQUAL "-h --help" AND NOT path STREQUAL ""))
        man_body(body)
        string(APPEND man_entries ".TP\n${tag}\n${body}")
      endif()
      # zsh: '(-h --help)'{-h,--help}'[desc]'  or  '*--fault=[desc]:message:action'
      zsh_text(d "${o_description}")
      set(spec "")
      if(o_repeat)
        set(spec "*")
      endif()
      list(LENGTH name_list name_count)
      if(name_count GREATER 1)
        string(REPLACE ";" "," braces "${name_list}")
        string(APPEND zsh_specs "    '(${o_names})'{${braces}}'")
      else()
        string(APPEND zsh_specs "    '${spec}${o_names}")
      endif()
      if(o_value)
        zsh_action(action "${o_shown}")
        string(APPEND zsh_specs "=[${d}]:${action}' \\\n")
      else()
        string(APPEND zsh_specs "[${d}]' \\\n")
      endif()
    endforeach()
  endif()
  emit(BASH_OPTIONS "  ['${full}']='${bash_options}'\n")

  set(position 0)
  if(last_positional GREATER_EQUAL 0)
    foreach(i RANGE ${last_positional})
      read_entry("${json}" positionals ${i})
      string(APPEND usage " ${o_names}")
      roff(rn "${o_names}")
      man_body(body)
      string(APPEND man_entries ".TP\n\\fI${rn}\\fR\n${body}")
      zsh_action(action "${o_names}")
      foreach(k RANGE 1 ${o_count})  # KEY VALUE: two words
        math(EXPR position "${position} + 1")
        string(APPEND zsh_specs "    '${position}:${action}' \\\n")
        bash_values("${full}|#${position}")
      endforeach()
    endforeach()
  endif()

  roff(u "${usage}")
  roff(d "${description}")
  if(NOT path STREQUAL "")
    emit(MAN_COMMANDS ".SS \"${u}\"\n\\&${d}\n${man_entries}")
  else()
    emit(MAN_TOP_OPTIONS "${man_entries}")
  endif()

  # zsh: one function per command; a command with subcommands dispatches to theirs.
  if(last_command GREATER_EQUAL 0)
    emit(ZSH "${zsh_function}() {
  local curcontext=\$curcontext state line
  local -a commands=(
${zsh_commands}  )
  _arguments -C -S \\
${zsh_specs}    '1: :->command' \\
    '*:: :->argument' && return
  case \$state in
    (command) _describe -t commands '${full} command' commands ;;
    (argument)
      case \$words[1] in
${zsh_dispatch}      esac ;;
  esac
}

")
  else()
    emit(ZSH "${zsh_function}() {
  _arguments -S \\
${zsh_specs}    && return
}

")
  endif()

  if(last_command GREATER_EQUAL 0)
    foreach(i RANGE ${last_command})
      json_get(sub "${json}" commands ${i})
      walk("${sub}")
    endforeach()
  endif()
endfunction()

walk("${reference}")

# --- the man page --------------------------------------------------------------------------
json_get(program_description "${reference}" description)
roff(DESCRIPTION "${program_description}")
get_property(COMMAND_LIST GLOBAL PROPERTY MAN_LIST)
get_property(COMMANDS GLOBAL PROPERTY MAN_COMMANDS)
get_property(TOP_OPTIONS GLOBAL PROPERTY MAN_TOP_OPTIONS)
foreach(block COMMAND_LIST COMMANDS TOP_OPTIONS)
  string(STRIP "${${block}}" ${block})  # no blank line before the next request
endforeach()
file(READ "${MAN_TEMPLATE}" man)
string(CONFIGURE "${man}" man @ONLY)
file(WRITE "${OUT_DIR}/dcwalk.1" "${man}")

# --- bash ----------------------------------------------------------------------------------
foreach(table COMMANDS OPTIONS VALUE WORDS FILES)
  get_property(BASH_${table} GLOBAL PROPERTY BASH_${table})
endforeach()
file(WRITE "${OUT_DIR}/dcwalk.bash" "# bash completion for dcwalk ${VERSION}
# Generated from `dcwalk --cli-reference` by packaging/cli_docs.cmake: change the program, not
# this file. Works with or without the bash-completion package.

# Keys are the command path (\"dcwalk asset check\"), then |OPTION or |#POSITION.
declare -gA _dcwalk_commands=(
${BASH_COMMANDS})
declare -gA _dcwalk_options=(
${BASH_OPTIONS})
declare -gA _dcwalk_takes_value=(
${BASH_VALUE})
declare -gA _dcwalk_words=(
${BASH_WORDS})
declare -gA _dcwalk_files=(
${BASH_FILES})
")
file(READ "${CMAKE_CURRENT_LIST_DIR}/completion.bash" bash_function)
file(APPEND "${OUT_DIR}/dcwalk.bash" "${bash_function}")

# --- zsh -----------------------------------------------------------------------------------
get_property(ZSH GLOBAL PROPERTY ZSH)
file(WRITE "${OUT_DIR}/_dcwalk" "#compdef dcwalk
# zsh completion for dcwalk ${VERSION}
# Generated from `dcwalk --cli-reference` by packaging/cli_docs.cmake: change the program, not
# this file.

${ZSH}if [ \"\$funcstack[1]\" = _dcwalk ]; then
  _dcwalk \"\$@\"
else
  compdef _dcwalk dcwalk
fi
")
