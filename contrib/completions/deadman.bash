# deadman.bash: bash completion for deadman, generated from its option tables; do not edit.
# Install: deadman completion bash > ~/.local/share/bash-completion/completions/deadman
# (or add  source <(deadman completion bash)  to ~/.bashrc).

# Whether the command words typed so far start with $1 (its options apply).
_deadman_in() {
    [[ "${_deadman_typed[*]} " == "$1 "* ]]
}

_deadman() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} word i skip=0
    local -a _deadman_typed=()
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if ((skip)); then skip=0; continue; fi
        case $word in
            --) return 0 ;;
            --config) skip=1 ;;
            -*) ;;
            *) _deadman_typed+=("$word") ;;
        esac
    done
    local commands='' options='--config --help --version' valued=' --config ' choices=''
    [[ "${_deadman_typed[*]}" == '' ]] && commands='run demo config check unit install incidents report revive status notify metrics health replay watch attach agent approve deny ack completion'
    _deadman_in 'run' && options+=' --name --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --auto-recover --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --health-public --quiet --summary --summary-json --record'
    _deadman_in 'run' && valued+='--name --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --record '
    _deadman_in 'run' && [[ $prev == --on-stall ]] && choices='withhold exit'
    _deadman_in 'run' && [[ $prev == --stdin ]] && choices='null inherit'
    _deadman_in 'run' && [[ $prev == --adapter ]] && choices='auto codex claude generic'
    _deadman_in 'demo' && options+=' --database'
    _deadman_in 'demo' && valued+='--database '
    [[ "${_deadman_typed[*]}" == 'config' ]] && commands='check schema'
    _deadman_in 'config check' && options+=' --database --state-dir --json --quiet'
    _deadman_in 'config check' && valued+='--database --state-dir '
    _deadman_in 'check' && options+=' --json --verbose --quiet --fix --yes --explain --approve-plan --database --state-dir'
    _deadman_in 'check' && valued+='--approve-plan --database --state-dir '
    _deadman_in 'unit' && options+=' --name --user --launchd --watchdog --restart-sec --run-as --cwd --env --on-failure --sandbox --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --auto-recover --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --health-public --quiet --summary --summary-json --record'
    _deadman_in 'unit' && valued+='--name --watchdog --restart-sec --run-as --cwd --env --on-failure --sandbox --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --record '
    _deadman_in 'unit' && [[ $prev == --sandbox ]] && choices='strict default off'
    _deadman_in 'unit' && [[ $prev == --on-stall ]] && choices='withhold exit'
    _deadman_in 'unit' && [[ $prev == --stdin ]] && choices='null inherit'
    _deadman_in 'unit' && [[ $prev == --adapter ]] && choices='auto codex claude generic'
    _deadman_in 'install' && options+=' --name --user --launchd --watchdog --restart-sec --run-as --cwd --env --on-failure --sandbox --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --auto-recover --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --health-public --quiet --summary --summary-json --record --force --unit-dir'
    _deadman_in 'install' && valued+='--name --watchdog --restart-sec --run-as --cwd --env --on-failure --sandbox --database --state-dir --inactivity --timeout --on-stall --stop-grace --ready-pattern --ready-port --ready-timeout --stdin --adapter --hung-timeout --kill-grace --poll --verify-window --exit-grace --ignore --health-listen --record --unit-dir '
    _deadman_in 'install' && [[ $prev == --sandbox ]] && choices='strict default off'
    _deadman_in 'install' && [[ $prev == --on-stall ]] && choices='withhold exit'
    _deadman_in 'install' && [[ $prev == --stdin ]] && choices='null inherit'
    _deadman_in 'install' && [[ $prev == --adapter ]] && choices='auto codex claude generic'
    _deadman_in 'incidents' && options+=' --since --name --json --database --state-dir'
    _deadman_in 'incidents' && valued+='--since --name --database --state-dir '
    _deadman_in 'report' && options+=' --name --json --database --state-dir'
    _deadman_in 'report' && valued+='--name --database --state-dir '
    _deadman_in 'revive' && options+=' --dry-run --json --name --database --state-dir'
    _deadman_in 'revive' && valued+='--name --database --state-dir '
    _deadman_in 'status' && options+=' --json --database --state-dir'
    _deadman_in 'status' && valued+='--database --state-dir '
    [[ "${_deadman_typed[*]}" == 'notify' ]] && commands='start success fail incident'
    _deadman_in 'notify' && options+=' --name --exit-code --database --state-dir'
    _deadman_in 'notify' && valued+='--name --exit-code --database --state-dir '
    _deadman_in 'metrics' && options+=' --json --database --state-dir'
    _deadman_in 'metrics' && valued+='--database --state-dir '
    _deadman_in 'health' && options+=' --name --quiet --settle --json --database --state-dir'
    _deadman_in 'health' && valued+='--name --database --state-dir '
    _deadman_in 'replay' && options+=' --json'
    _deadman_in 'watch' && options+=' --session --once --json'
    _deadman_in 'watch' && valued+='--session '
    _deadman_in 'attach' && options+=' --database --state-dir --auto-recover --hung-timeout --kill-grace --poll --verify-window --inactivity --summary-json --pid --once'
    _deadman_in 'attach' && valued+='--database --state-dir --hung-timeout --kill-grace --poll --verify-window --inactivity --pid '
    _deadman_in 'agent' && options+=' --database --state-dir --auto-recover --hung-timeout --kill-grace --poll --verify-window --inactivity --summary-json'
    _deadman_in 'agent' && valued+='--database --state-dir --hung-timeout --kill-grace --poll --verify-window --inactivity '
    _deadman_in 'approve' && options+=' --database --state-dir'
    _deadman_in 'approve' && valued+='--database --state-dir '
    _deadman_in 'deny' && options+=' --database --state-dir'
    _deadman_in 'deny' && valued+='--database --state-dir '
    _deadman_in 'ack' && options+=' --note --database --state-dir'
    _deadman_in 'ack' && valued+='--note --database --state-dir '
    [[ "${_deadman_typed[*]}" == 'completion' ]] && commands='fish bash zsh'
    if [[ -n $choices ]]; then
        COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    elif [[ $valued == *" $prev "* ]]; then
        COMPREPLY=()
    elif [[ $cur == -* || -z $commands ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    fi
}
complete -o default -F _deadman deadman
