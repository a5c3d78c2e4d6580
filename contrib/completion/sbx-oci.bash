# bash completion for sbx-oci (installed by meson into
# share/bash-completion/completions/sbx-oci).  Commands, their options,
# container ids from `sbx-oci list -q`, files where an option takes one.
_sbx_oci_commands="run spec check create start state kill delete exec list ps features pause resume update fence"

_sbx_oci_options ()
{
  case $1 in
    run) echo "--bundle --policy --env --cwd --outcome --outcome-fd --dry-run --backend --seccomp-dir --preserve-fds --help" ;;
    spec) echo "--bundle --agent --workspace --mode --help" ;;
    check) echo "--bundle --format --help" ;;
    create) echo "--bundle --pid-file --console-socket --preserve-fds --help" ;;
    kill) echo "--all --help" ;;
    delete) echo "--force --help" ;;
    exec) echo "--process --env --cwd --detach --pid-file --tty --console-socket --preserve-fds --process-label --apparmor --help" ;;
    list) echo "--format -q --help" ;;
    ps) echo "--format --help" ;;
    fence) echo "--config --ceiling --verdict-fd --max-bytes --mode --access --help" ;;
    *) echo "--help" ;;
  esac
}

_sbx_oci ()
{
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local cmd="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --root|--log|--log-format|--log-level|--runner|--ceiling|--approve|--cgroup-manager|--rootless) ((i++)) ;;
      -*) ;;
      *) cmd=${COMP_WORDS[i]}; break ;;
    esac
  done
  case $prev in
    --root|--bundle|--workspace|--cwd|--seccomp-dir)
      COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --log|--runner|--ceiling|--approve|--config|--policy|--outcome|--pid-file|--process|--console-socket)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --log-format) COMPREPLY=($(compgen -W "text json" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "table json text" -- "$cur")); return ;;
    --mode) COMPREPLY=($(compgen -W "read-only workspace-write" -- "$cur")); return ;;
    --backend) COMPREPLY=($(compgen -W "bwrap seatbelt" -- "$cur")); return ;;
    --access) COMPREPLY=($(compgen -W "read write remove" -- "$cur")); return ;;
  esac
  if [ -z "$cmd" ]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "--root --log --log-format --runner --ceiling --approve --systemd-cgroup --debug --version --help" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$_sbx_oci_commands" -- "$cur"))
    fi
    return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_sbx_oci_options "$cmd")" -- "$cur"))
    return
  fi
  case $cmd in
    start|state|kill|delete|exec|ps|pause|resume|update)
      COMPREPLY=($(compgen -W "$(sbx-oci list -q 2>/dev/null)" -- "$cur")) ;;
  esac
}
complete -F _sbx_oci sbx-oci
