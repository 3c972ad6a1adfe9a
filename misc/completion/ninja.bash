# bash completion for ninja (ronin). Installed as
# share/bash-completion/completions/ninja; or source it from ~/.bashrc.
#
# Everything offered is asked of the ninja being completed, at the time of
# completion, so the lists follow the binary: options from `ninja -h`
# (ronin's long options included), subtools from `-t list`, debugging modes
# from `-d list`, warning flags from `-w list`, and targets from
# `-t targets all` of the manifest that -C and -f on the line select.

# The ninja on the command line (./build/ninja completes as itself).
_ninja_binary() {
  local binary=${COMP_WORDS[0]}
  [[ $binary == "~/"* ]] && binary=$HOME/${binary#"~/"}
  command -v -- "$binary" >/dev/null 2>&1 || binary=ninja
  printf '%s\n' "$binary"
}

# The values `ninja -h` lists for an option: "--name=a|b" gives a and b
# (an uppercase name such as SIZE is a placeholder: nothing to offer).
_ninja_option_values() {
  "$(_ninja_binary)" -h 2>&1 | sed -n "s/^ *$1=\([a-z][a-z|]*\) .*/\1/p" | tr '|' '\n'
}

# Options from `ninja -h`: "-v, --verbose", "-C DIR", "--name[=VALUE]".
# An option that takes a value after '=' is offered with the '='.
_ninja_options() {
  "$(_ninja_binary)" -h 2>&1 |
    grep -oE '(^ +|, )--?[a-zA-Z][-a-zA-Z0-9]*(=)?' |
    sed 's/^[ ,]*//' | sort -u
}

# The names of a `-X list` listing: the first word of each entry line (the
# heading ends in ':'; -w's "name={a,b}" gives name=a and name=b).
_ninja_list() {
  "$(_ninja_binary)" "$1" list 2>&1 |
    awk 'NR > 1 && NF > 1 && $1 !~ /:$/ && $1 != "multiple" {
           name = $1
           if (match(name, /=\{.*\}$/)) {
             n = split(substr(name, RSTART + 2, RLENGTH - 3), values, ",")
             for (i = 1; i <= n; i++) print substr(name, 1, RSTART) values[i]
           } else print name
         }'
}

# Targets of the manifest selected by -C and -f earlier on the line.
_ninja_targets() {
  local args=() i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -C|-f) args+=("${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]/#\~/$HOME}") ;;
    esac
  done
  "$(_ninja_binary)" "${args[@]}" -t targets all 2>/dev/null | sed 's/: [^:]*$//'
}

_ninja() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local IFS=$'\n'
  COMPREPLY=()
  case $prev in
    -C) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -f) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -t|-d|-w) COMPREPLY=($(compgen -W "$(_ninja_list "$prev")" -- "$cur")); return ;;
    -j|-k|-l) return ;;
  esac
  # A value of a long option that lists its values: after "--name=" (which
  # bash splits into "--name", "=", value unless COMP_WORDBREAKS lacks '=')
  # or after "--name ".
  local option= prefix=
  if [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --* ]]; then
    option=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == --*=* ]]; then
    option=${cur%%=*} prefix=$option= cur=${cur#*=}
  elif [[ $prev == --* ]]; then
    option=$prev
  fi
  if [[ -n $option ]]; then
    local values
    values=$(_ninja_option_values "$option")
    if [[ -n $values ]]; then
      COMPREPLY=($(compgen -P "$prefix" -W "$values" -- "$cur"))
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_ninja_options)" -- "$cur"))
    [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
  else
    COMPREPLY=($(compgen -W "$(_ninja_targets)" -- "$cur"))
  fi
}
complete -F _ninja ninja
