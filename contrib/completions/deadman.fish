# deadman.fish: fish completion for deadman, generated from its option tables; do not edit.
# Install: deadman completion fish > ~/.config/fish/completions/deadman.fish

# The words typed so far, without options and the value of --config: "deadman --config x config check" → config check.
function __deadman_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        if test "$word" = --config
            set skip 1
            continue
        end
        string match -q -- '-*' $word; and continue
        echo $word
    end
end

# Whether the typed command words are exactly $argv ("config" → a config action comes next).
function __deadman_at
    set -l words (__deadman_words)
    test "$words" = "$argv"
end

# Whether the typed command words start with $argv (its options apply).
function __deadman_in
    set -l words (__deadman_words)
    set -l typed (count $argv)
    test (count $words) -ge $typed; or return 1
    # fish 3.6 takes no command substitution inside an index range ("Invalid index value").
    test "$words[1..$typed]" = "$argv"
end

complete -c deadman -l config -r -F -d 'config file (default: $DEADMAN_CONFIG, ./deadman.toml, /etc/deadman/deadman.toml)'
complete -c deadman -s h -l help -d 'show help'
complete -c deadman -l version -d 'show the version'

# deadman run
complete -c deadman -f -n '__deadman_at' -a 'run' -d 'run a command under supervision (the unit\'s ExecStart=)'
complete -c deadman -n '__deadman_in run' -l name -r -d 'name of this run (revive marker, records); default: the unit name, else the command\'s basename and a hash of the command (codex-3f2a9c)'
complete -c deadman -n '__deadman_in run' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in run' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in run' -l inactivity -r -d 'stall after this long with no output and an idle process tree (default 30min; "off" disables)'
complete -c deadman -n '__deadman_in run' -l timeout -r -d 'cap on wall time; the run is stopped and exits 124 (default off)'
complete -c deadman -n '__deadman_in run' -l on-stall -x -a 'withhold exit' -d 'withhold (stop feeding the systemd watchdog) or exit (stop the tree, exit 75); default: withhold under a systemd watchdog, else exit'
complete -c deadman -n '__deadman_in run' -l stop-grace -r -d 'time between the forwarded stop signal and SIGKILL of the whole tree (default 10s)'
complete -c deadman -n '__deadman_in run' -l ready-pattern -r -d 'send READY=1 when an output line matches this regex (supervised servers)'
complete -c deadman -n '__deadman_in run' -l ready-port -r -d 'send READY=1 when 127.0.0.1:PORT accepts connections'
complete -c deadman -n '__deadman_in run' -l ready-timeout -r -d 'give up waiting for readiness after this long (default 90s)'
complete -c deadman -n '__deadman_in run' -l stdin -x -a 'null inherit' -d 'null (default: the command reads /dev/null) or inherit'
complete -c deadman -n '__deadman_in run' -l adapter -x -a 'auto codex claude generic' -d 'auto (default), codex, claude or generic: how to read the command\'s output'
complete -c deadman -n '__deadman_in run' -l auto-recover -d 'let deadman kill hung owned descendants (off by default: incidents wait for approval)'
complete -c deadman -n '__deadman_in run' -l hung-timeout -r -d 'a descendant subtree with no CPU, I/O or process change for this long is hung (default 60s)'
complete -c deadman -n '__deadman_in run' -l kill-grace -r -d 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)'
complete -c deadman -n '__deadman_in run' -l poll -r -d 'how often the process tree is observed (default 1s)'
complete -c deadman -n '__deadman_in run' -l verify-window -r -d 'how long a recovery has to show new output (default 60s)'
complete -c deadman -n '__deadman_in run' -l exit-grace -r -d 'an agent still running this long after its final result is stopped, and the run exits with the result\'s verdict (default 30s; "off" disables)'
complete -c deadman -n '__deadman_in run' -l ignore -r -d 'regex on a command line that is never a kill target (repeatable)'
complete -c deadman -n '__deadman_in run' -l health-listen -r -d 'serve the health answer (deadman health\'s) over HTTP at HOST:PORT for httpGet probes: 200 healthy, 503 not; loopback only unless --health-public'
complete -c deadman -n '__deadman_in run' -l health-public -d 'let --health-listen take an address other hosts can reach (a Kubernetes probe comes to the pod\'s IP)'
complete -c deadman -n '__deadman_in run' -l quiet -d 'print problems only (warnings, errors, a run that did not end 0): nothing when all is well, for cron'
complete -c deadman -n '__deadman_in run' -l summary -d 'end with the summary block even when stderr is not a terminal (default there: one summary line)'
complete -c deadman -n '__deadman_in run' -l summary-json -d 'end with the run summary as one JSON object on stderr instead of the text block'
complete -c deadman -n '__deadman_in run' -l record -r -d 'write a trace of this run (every agent process: output, tree observations, exit; secrets redacted) to FILE, a new file made 0600 (one already there is refused), for deadman replay FILE'

# deadman demo
complete -c deadman -f -n '__deadman_at' -a 'demo' -d 'show deadman catching seven kinds of failure, for real and offline (about 15 s)'
complete -c deadman -n '__deadman_in demo' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'

# deadman config
complete -c deadman -f -n '__deadman_at' -a 'config' -d 'inspect the configuration'

# deadman config check
complete -c deadman -f -n '__deadman_at config' -a 'check' -d 'validate the config and show what deadman would use'
complete -c deadman -n '__deadman_in config check' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in config check' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in config check' -l json -d 'print one JSON object (snake_case keys; docs/cli-json.md)'
complete -c deadman -n '__deadman_in config check' -l quiet -d 'print only the problems (nothing when all is well): for cron'

# deadman config schema
complete -c deadman -f -n '__deadman_at config' -a 'schema' -d 'print the JSON Schema of deadman.toml (for editors; the package ships it as contrib/deadman.schema.json)'

# deadman check
complete -c deadman -f -n '__deadman_at' -a 'check' -d 'audit scheduled jobs by the evidence they should leave (green but dead?)'
complete -c deadman -n '__deadman_in check' -l json -d 'print the verdicts as one JSON document'
complete -c deadman -n '__deadman_in check' -l verbose -d 'also print one line per healthy job'
complete -c deadman -n '__deadman_in check' -l quiet -d 'print only the jobs that need attention (nothing when all is well): for cron'
complete -c deadman -n '__deadman_in check' -l fix -d 'offer each dead job\'s rerun command, asking for approval on the terminal'
complete -c deadman -n '__deadman_in check' -l yes -d 'approve every rerun (with --fix) or the plan (with --approve-plan) without asking'
complete -c deadman -n '__deadman_in check' -l explain -d 'print the typed plan each job is checked by (what its English claim became); check nothing'
complete -c deadman -n '__deadman_in check' -l approve-plan -r -d 'show the diagnostician\'s plan for JOB\'s claim the reader refused, and pin it on approval'
complete -c deadman -n '__deadman_in check' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in check' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman unit
complete -c deadman -f -n '__deadman_at' -a 'unit' -d 'print a systemd unit (or launchd plist) that runs a command under deadman run'
complete -c deadman -n '__deadman_in unit' -l name -r -d 'names the unit (deadman-NAME.service) and the run (default: config name, else the command\'s basename)'
complete -c deadman -n '__deadman_in unit' -l user -d 'a systemd --user unit (WantedBy=default.target, no User=)'
complete -c deadman -n '__deadman_in unit' -l launchd -d 'a launchd plist for macOS instead of a systemd unit'
complete -c deadman -n '__deadman_in unit' -l watchdog -r -d 'WatchdogSec= (default: a quarter of inactivity, 5s–60s)'
complete -c deadman -n '__deadman_in unit' -l restart-sec -r -d 'RestartSec= / ThrottleInterval (default 30s)'
complete -c deadman -n '__deadman_in unit' -l run-as -r -d 'User= of a system unit (default: $SUDO_USER, else the current user)'
complete -c deadman -n '__deadman_in unit' -l cwd -r -d 'working directory of the command (default: the current one)'
complete -c deadman -n '__deadman_in unit' -l env -r -d 'KEY=VALUE for the command\'s environment (repeatable); PATH defaults to this shell\'s'
complete -c deadman -n '__deadman_in unit' -l on-failure -r -d 'OnFailure=: a unit to start when this one gives up; alone, a generated deadman-NAME-notify.service that reports the incident and alerts [notify]'
complete -c deadman -n '__deadman_in unit' -l sandbox -x -a 'strict default off' -d 'sandboxing of the unit: strict, default (never in an agent\'s way) or off (default: [unit] sandbox, else default)'
complete -c deadman -n '__deadman_in unit' -l database -r -d 'deadman run: SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in unit' -l state-dir -r -d 'deadman run: state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in unit' -l inactivity -r -d 'deadman run: stall after this long with no output and an idle process tree (default 30min; "off" disables)'
complete -c deadman -n '__deadman_in unit' -l timeout -r -d 'deadman run: cap on wall time; the run is stopped and exits 124 (default off)'
complete -c deadman -n '__deadman_in unit' -l on-stall -x -a 'withhold exit' -d 'deadman run: withhold (stop feeding the systemd watchdog) or exit (stop the tree, exit 75); default: withhold under a systemd watchdog, else exit'
complete -c deadman -n '__deadman_in unit' -l stop-grace -r -d 'deadman run: time between the forwarded stop signal and SIGKILL of the whole tree (default 10s)'
complete -c deadman -n '__deadman_in unit' -l ready-pattern -r -d 'deadman run: send READY=1 when an output line matches this regex (supervised servers)'
complete -c deadman -n '__deadman_in unit' -l ready-port -r -d 'deadman run: send READY=1 when 127.0.0.1:PORT accepts connections'
complete -c deadman -n '__deadman_in unit' -l ready-timeout -r -d 'deadman run: give up waiting for readiness after this long (default 90s)'
complete -c deadman -n '__deadman_in unit' -l stdin -x -a 'null inherit' -d 'deadman run: null (default: the command reads /dev/null) or inherit'
complete -c deadman -n '__deadman_in unit' -l adapter -x -a 'auto codex claude generic' -d 'deadman run: auto (default), codex, claude or generic: how to read the command\'s output'
complete -c deadman -n '__deadman_in unit' -l auto-recover -d 'deadman run: let deadman kill hung owned descendants (off by default: incidents wait for approval)'
complete -c deadman -n '__deadman_in unit' -l hung-timeout -r -d 'deadman run: a descendant subtree with no CPU, I/O or process change for this long is hung (default 60s)'
complete -c deadman -n '__deadman_in unit' -l kill-grace -r -d 'deadman run: time between SIGTERM and SIGKILL for a hung subtree (default 5s)'
complete -c deadman -n '__deadman_in unit' -l poll -r -d 'deadman run: how often the process tree is observed (default 1s)'
complete -c deadman -n '__deadman_in unit' -l verify-window -r -d 'deadman run: how long a recovery has to show new output (default 60s)'
complete -c deadman -n '__deadman_in unit' -l exit-grace -r -d 'deadman run: an agent still running this long after its final result is stopped, and the run exits with the result\'s verdict (default 30s; "off" disables)'
complete -c deadman -n '__deadman_in unit' -l ignore -r -d 'deadman run: regex on a command line that is never a kill target (repeatable)'
complete -c deadman -n '__deadman_in unit' -l health-listen -r -d 'deadman run: serve the health answer (deadman health\'s) over HTTP at HOST:PORT for httpGet probes: 200 healthy, 503 not; loopback only unless --health-public'
complete -c deadman -n '__deadman_in unit' -l health-public -d 'deadman run: let --health-listen take an address other hosts can reach (a Kubernetes probe comes to the pod\'s IP)'
complete -c deadman -n '__deadman_in unit' -l quiet -d 'deadman run: print problems only (warnings, errors, a run that did not end 0): nothing when all is well, for cron'
complete -c deadman -n '__deadman_in unit' -l summary -d 'deadman run: end with the summary block even when stderr is not a terminal (default there: one summary line)'
complete -c deadman -n '__deadman_in unit' -l summary-json -d 'deadman run: end with the run summary as one JSON object on stderr instead of the text block'
complete -c deadman -n '__deadman_in unit' -l record -r -d 'deadman run: write a trace of this run (every agent process: output, tree observations, exit; secrets redacted) to FILE, a new file made 0600 (one already there is refused), for deadman replay FILE'

# deadman install
complete -c deadman -f -n '__deadman_at' -a 'install' -d 'write the unit (or plist) of deadman unit into place and print how to start it'
complete -c deadman -n '__deadman_in install' -l name -r -d 'names the unit (deadman-NAME.service) and the run (default: config name, else the command\'s basename)'
complete -c deadman -n '__deadman_in install' -l user -d 'a systemd --user unit (WantedBy=default.target, no User=)'
complete -c deadman -n '__deadman_in install' -l launchd -d 'a launchd plist for macOS instead of a systemd unit'
complete -c deadman -n '__deadman_in install' -l watchdog -r -d 'WatchdogSec= (default: a quarter of inactivity, 5s–60s)'
complete -c deadman -n '__deadman_in install' -l restart-sec -r -d 'RestartSec= / ThrottleInterval (default 30s)'
complete -c deadman -n '__deadman_in install' -l run-as -r -d 'User= of a system unit (default: $SUDO_USER, else the current user)'
complete -c deadman -n '__deadman_in install' -l cwd -r -d 'working directory of the command (default: the current one)'
complete -c deadman -n '__deadman_in install' -l env -r -d 'KEY=VALUE for the command\'s environment (repeatable); PATH defaults to this shell\'s'
complete -c deadman -n '__deadman_in install' -l on-failure -r -d 'OnFailure=: a unit to start when this one gives up; alone, a generated deadman-NAME-notify.service that reports the incident and alerts [notify]'
complete -c deadman -n '__deadman_in install' -l sandbox -x -a 'strict default off' -d 'sandboxing of the unit: strict, default (never in an agent\'s way) or off (default: [unit] sandbox, else default)'
complete -c deadman -n '__deadman_in install' -l database -r -d 'deadman run: SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in install' -l state-dir -r -d 'deadman run: state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in install' -l inactivity -r -d 'deadman run: stall after this long with no output and an idle process tree (default 30min; "off" disables)'
complete -c deadman -n '__deadman_in install' -l timeout -r -d 'deadman run: cap on wall time; the run is stopped and exits 124 (default off)'
complete -c deadman -n '__deadman_in install' -l on-stall -x -a 'withhold exit' -d 'deadman run: withhold (stop feeding the systemd watchdog) or exit (stop the tree, exit 75); default: withhold under a systemd watchdog, else exit'
complete -c deadman -n '__deadman_in install' -l stop-grace -r -d 'deadman run: time between the forwarded stop signal and SIGKILL of the whole tree (default 10s)'
complete -c deadman -n '__deadman_in install' -l ready-pattern -r -d 'deadman run: send READY=1 when an output line matches this regex (supervised servers)'
complete -c deadman -n '__deadman_in install' -l ready-port -r -d 'deadman run: send READY=1 when 127.0.0.1:PORT accepts connections'
complete -c deadman -n '__deadman_in install' -l ready-timeout -r -d 'deadman run: give up waiting for readiness after this long (default 90s)'
complete -c deadman -n '__deadman_in install' -l stdin -x -a 'null inherit' -d 'deadman run: null (default: the command reads /dev/null) or inherit'
complete -c deadman -n '__deadman_in install' -l adapter -x -a 'auto codex claude generic' -d 'deadman run: auto (default), codex, claude or generic: how to read the command\'s output'
complete -c deadman -n '__deadman_in install' -l auto-recover -d 'deadman run: let deadman kill hung owned descendants (off by default: incidents wait for approval)'
complete -c deadman -n '__deadman_in install' -l hung-timeout -r -d 'deadman run: a descendant subtree with no CPU, I/O or process change for this long is hung (default 60s)'
complete -c deadman -n '__deadman_in install' -l kill-grace -r -d 'deadman run: time between SIGTERM and SIGKILL for a hung subtree (default 5s)'
complete -c deadman -n '__deadman_in install' -l poll -r -d 'deadman run: how often the process tree is observed (default 1s)'
complete -c deadman -n '__deadman_in install' -l verify-window -r -d 'deadman run: how long a recovery has to show new output (default 60s)'
complete -c deadman -n '__deadman_in install' -l exit-grace -r -d 'deadman run: an agent still running this long after its final result is stopped, and the run exits with the result\'s verdict (default 30s; "off" disables)'
complete -c deadman -n '__deadman_in install' -l ignore -r -d 'deadman run: regex on a command line that is never a kill target (repeatable)'
complete -c deadman -n '__deadman_in install' -l health-listen -r -d 'deadman run: serve the health answer (deadman health\'s) over HTTP at HOST:PORT for httpGet probes: 200 healthy, 503 not; loopback only unless --health-public'
complete -c deadman -n '__deadman_in install' -l health-public -d 'deadman run: let --health-listen take an address other hosts can reach (a Kubernetes probe comes to the pod\'s IP)'
complete -c deadman -n '__deadman_in install' -l quiet -d 'deadman run: print problems only (warnings, errors, a run that did not end 0): nothing when all is well, for cron'
complete -c deadman -n '__deadman_in install' -l summary -d 'deadman run: end with the summary block even when stderr is not a terminal (default there: one summary line)'
complete -c deadman -n '__deadman_in install' -l summary-json -d 'deadman run: end with the run summary as one JSON object on stderr instead of the text block'
complete -c deadman -n '__deadman_in install' -l record -r -d 'deadman run: write a trace of this run (every agent process: output, tree observations, exit; secrets redacted) to FILE, a new file made 0600 (one already there is refused), for deadman replay FILE'
complete -c deadman -n '__deadman_in install' -l force -d 'replace an existing file'
complete -c deadman -n '__deadman_in install' -l unit-dir -r -d 'write here instead of the standard directory'

# deadman incidents
complete -c deadman -f -n '__deadman_at' -a 'incidents' -d 'list recorded incidents, oldest first'
complete -c deadman -n '__deadman_in incidents' -l since -r -d 'only incidents opened within this span, e.g. 24h or 7d (default: all kept)'
complete -c deadman -n '__deadman_in incidents' -l name -r -d 'only incidents of runs with this name'
complete -c deadman -n '__deadman_in incidents' -l json -d 'print a JSON array'
complete -c deadman -n '__deadman_in incidents' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in incidents' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman report
complete -c deadman -f -n '__deadman_at' -a 'report' -d 'show one incident: timeline, evidence, action, verification, advice'
complete -c deadman -n '__deadman_in report' -l name -r -d 'with "latest": the latest incident of runs with this name'
complete -c deadman -n '__deadman_in report' -l json -d 'print the report as JSON'
complete -c deadman -n '__deadman_in report' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in report' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman revive
complete -c deadman -f -n '__deadman_at' -a 'revive' -d 'after a restart: resume interrupted agent sessions, each under a supervising deadman run of its own (bounded by revive.max_revives)'
complete -c deadman -n '__deadman_in revive' -l dry-run -d 'list what would be revived; change nothing, do not wait revive.delay'
complete -c deadman -n '__deadman_in revive' -l json -d 'print one JSON object per session, as an array'
complete -c deadman -n '__deadman_in revive' -l name -r -d 'only the marker of this run name (session files are then not searched)'
complete -c deadman -n '__deadman_in revive' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in revive' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman status
complete -c deadman -f -n '__deadman_at' -a 'status' -d 'one line per run: state, session, age, revive count, open incident; exit 1 when any needs attention or a person (docs/status.md)'
complete -c deadman -n '__deadman_in status' -l json -d 'print a JSON array (snake_case keys, ISO-8601 UTC times; docs/status.md)'
complete -c deadman -n '__deadman_in status' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in status' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman notify
complete -c deadman -f -n '__deadman_at' -a 'notify' -d 'send an alert (start, success, fail, incident) to the sinks of [notify]'
complete -c deadman -n '__deadman_in notify' -l name -r -d 'the run (unit instance) it is about; fail and incident name its latest incident'
complete -c deadman -n '__deadman_in notify' -l exit-code -r -d 'the exit code of a fail (default: $MONITOR_EXIT_STATUS from OnFailure=)'
complete -c deadman -n '__deadman_in notify' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in notify' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -f -n '__deadman_at notify' -a 'start success fail incident'

# deadman metrics
complete -c deadman -f -n '__deadman_at' -a 'metrics' -d 'print every run\'s health, incidents, revives and kills as Prometheus text (or --json)'
complete -c deadman -n '__deadman_in metrics' -l json -d 'the same facts as JSON (snake_case)'
complete -c deadman -n '__deadman_in metrics' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in metrics' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman health
complete -c deadman -f -n '__deadman_at' -a 'health' -d 'exit 0 while the run is healthy, 1 when not (stalled, its deadman gone), 64 for no such run (for liveness probes and HEALTHCHECK)'
complete -c deadman -n '__deadman_in health' -l name -r -d 'the run to judge (default: name from the config)'
complete -c deadman -n '__deadman_in health' -l quiet -d 'print nothing; the exit code says it'
complete -c deadman -n '__deadman_in health' -l settle -d 'for ExecStopPost=: settle a run whose deadman is gone, then exit 0 when systemd says the service ended well ($SERVICE_RESULT=success), 1 when not'
complete -c deadman -n '__deadman_in health' -l json -d 'print one JSON object (snake_case keys, ISO-8601 UTC times; docs/cli-json.md)'
complete -c deadman -n '__deadman_in health' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in health' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman replay
complete -c deadman -f -n '__deadman_at' -a 'replay' -d 'replay a recorded run (deadman run --record FILE) or a shipped trace on a simulated clock; signals nothing'
complete -c deadman -n '__deadman_in replay' -l json -d 'print the steps and signal sequence as JSON'

# deadman watch
complete -c deadman -f -n '__deadman_at' -a 'watch' -d 'show a persisted Codex or Claude session of this repository: turn state, events, signals (never signals a process)'
complete -c deadman -n '__deadman_in watch' -l session -r -d 'the session id (default: the newest session of this repository in the last 7 days)'
complete -c deadman -n '__deadman_in watch' -l once -d 'look once and exit (default: look every 2s until interrupted)'
complete -c deadman -n '__deadman_in watch' -l json -d 'print the view as JSON'

# deadman attach
complete -c deadman -f -n '__deadman_at' -a 'attach' -d 'supervise a running Codex or Claude Code that deadman did not start (kills only its hung descendants)'
complete -c deadman -n '__deadman_in attach' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in attach' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in attach' -l auto-recover -d 'kill hung descendants (off by default: incidents wait for approval)'
complete -c deadman -n '__deadman_in attach' -l hung-timeout -r -d 'a tool subtree with no CPU, I/O or process change for this long is hung (default 60s)'
complete -c deadman -n '__deadman_in attach' -l kill-grace -r -d 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)'
complete -c deadman -n '__deadman_in attach' -l poll -r -d 'how often the agent\'s tree is observed (default 1s)'
complete -c deadman -n '__deadman_in attach' -l verify-window -r -d 'how long a recovery has to show the session file growing (default 60s)'
complete -c deadman -n '__deadman_in attach' -l inactivity -r -d 'report a stall after this long with no session-file write (default off: an interactive agent waits for its person)'
complete -c deadman -n '__deadman_in attach' -l summary-json -d 'end with the run summary as one JSON object on stderr instead of the text block'
complete -c deadman -n '__deadman_in attach' -l pid -r -d 'the agent\'s pid (default: the one agent working in this repository)'
complete -c deadman -n '__deadman_in attach' -l once -d 'take one look, print it and exit'

# deadman agent
complete -c deadman -f -n '__deadman_at' -a 'agent' -d 'deadman agent [options] -- codex …: an interactive Codex or Claude Code in a pseudo-terminal, supervised like attach (its exit code passed through)'
complete -c deadman -n '__deadman_in agent' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in agent' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'
complete -c deadman -n '__deadman_in agent' -l auto-recover -d 'kill hung descendants (off by default: incidents wait for approval)'
complete -c deadman -n '__deadman_in agent' -l hung-timeout -r -d 'a tool subtree with no CPU, I/O or process change for this long is hung (default 60s)'
complete -c deadman -n '__deadman_in agent' -l kill-grace -r -d 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)'
complete -c deadman -n '__deadman_in agent' -l poll -r -d 'how often the agent\'s tree is observed (default 1s)'
complete -c deadman -n '__deadman_in agent' -l verify-window -r -d 'how long a recovery has to show the session file growing (default 60s)'
complete -c deadman -n '__deadman_in agent' -l inactivity -r -d 'report a stall after this long with no session-file write (default off: an interactive agent waits for its person)'
complete -c deadman -n '__deadman_in agent' -l summary-json -d 'end with the run summary as one JSON object on stderr instead of the text block'

# deadman approve
complete -c deadman -f -n '__deadman_at' -a 'approve' -d 'let the running deadman kill the hung subtree of an incident AWAITING_APPROVAL'
complete -c deadman -n '__deadman_in approve' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in approve' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman deny
complete -c deadman -f -n '__deadman_at' -a 'deny' -d 'tell the running deadman to leave the hung subtree of an incident AWAITING_APPROVAL alone'
complete -c deadman -n '__deadman_in deny' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in deny' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman ack
complete -c deadman -f -n '__deadman_at' -a 'ack' -d 'settle an ESCALATED incident by hand (it was looked at): recorded with who and when; status stops counting it'
complete -c deadman -n '__deadman_in ack' -l note -r -d 'why, for the incident\'s timeline (deadman report ID)'
complete -c deadman -n '__deadman_in ack' -l database -r -d 'SQLite database (default: <state dir>/deadman.db); alone, the revive markers go beside it (<database>.markers/)'
complete -c deadman -n '__deadman_in ack' -l state-dir -r -d 'state directory: database and revive markers both go there (default: $STATE_DIRECTORY, else the platform\'s)'

# deadman completion
complete -c deadman -f -n '__deadman_at' -a 'completion' -d 'print a shell completion script: deadman completion fish|bash|zsh (default: by $SHELL); install lines at its top'
complete -c deadman -f -n '__deadman_at completion' -a 'fish bash zsh'
