import { CONSULTABLE_SIGNALS } from '../signals/registry.ts';
/**
 * One line per key of deadman.toml: what it does, for the JSON Schema (editors show it on hover
 * and completion). deadman.toml.example says the same at length, with the defaults; a test checks
 * that every key of the schema has a line here and that every line names a key. Keys are dotted
 * paths; `claim.` is an [[evidence]] claim (top level or of a job), `job.` one [jobs.NAME].
 */
export const KEY_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '': 'deadman.toml: how `deadman run` supervises a command, and the jobs `deadman check` audits.',
  name: "Name of the run (revive marker, records). Default: the systemd unit, else the command's basename and a hash. --name wins.",
  command: 'The command to supervise when none is given after `--`, as a list (no shell, no quoting).',
  cwd: "Working directory of the command. Default: deadman's own.",
  database: 'SQLite database. Default: <state dir>/deadman.db; set alone, the markers live beside it.',
  state_dir:
    'State directory (database, markers, marker key). Default: $STATE_DIRECTORY, else /var/lib/deadman as root, ~/.local/state/deadman otherwise.',
  auto_recover:
    'Let deadman kill hung owned descendants by itself; off: incidents wait in AWAITING_APPROVAL for `deadman approve`.',
  inactivity: 'Stall after this long with no output (or no parsed agent event) and an idle process tree.',
  timeout: 'Cap on wall time: the run is stopped and exits 124.',
  on_stall:
    'What a stall does: "withhold" the watchdog pings (systemd restarts), or "exit" 75. Default: withhold under a watchdog.',
  stop_grace: 'Grace between the forwarded stop signal and SIGKILL of the whole tree.',
  ready_pattern: 'For servers: READY=1 when an output line matches this regular expression.',
  ready_port: 'For servers: READY=1 when 127.0.0.1:PORT accepts a connection.',
  ready_timeout: 'Stall when not ready after this long.',
  stdin: 'The command\'s stdin: "null" (/dev/null) or "inherit".',
  adapter: 'How output is read: "auto" (from the command line), "codex", "claude" or "generic".',
  hung_timeout: 'A descendant subtree with no CPU, no I/O and no process change for this long is hung.',
  kill_grace: 'Between SIGTERM and SIGKILL when a hung subtree is killed.',
  poll: 'How often the owned process tree is observed.',
  verify_window: 'How long a recovery has to show new output before it counts as failed.',
  ignore: "Regular expressions on a process's command line: such processes are never kill targets.",
  activity: 'When a silent process tree counts as working (postponing the inactivity stall).',
  'activity.window': 'The window over which CPU time and I/O are summed.',
  'activity.cpu': 'CPU time (with time waiting for a CPU, on Linux) within the window above which the tree is working.',
  'activity.io_bytes':
    "Bytes read + written within the window (outside deadman's pipes) above which the tree is working.",
  max_line_bytes: 'Lines longer than this are cut (and flagged) for the detectors; the passthrough is unaffected.',
  generic: 'For adapter = "generic": how to find a session id and a finished turn in plain lines.',
  'generic.session_pattern': 'A regular expression whose first group is the session id.',
  'generic.turn_end_pattern':
    'A regular expression that marks a finished turn (a clean completion clears the revive marker).',
  revive: 'Reviving interrupted agent sessions from their markers.',
  'revive.max_age': 'Only sessions interrupted less than this long ago are revived.',
  'revive.max_revives':
    "Revives in a row without a clean completion before deadman stops (exit 69); 0 (off) to 20. With no marker, the revive prompts in a row in the agent's session file count.",
  'revive.delay': '`deadman revive` waits this long before re-prompting.',
  'revive.start_timeout': 'How long `deadman revive` may take to launch resumes.',
  'revive.message': 'The prompt for a resumed session. Default: says the run was cut off and repeats the task.',
  'revive.command': 'Your own resume command; {session_id}, {message} and {cwd} are replaced as whole arguments.',
  'revive.session_files': 'Also look for interrupted sessions in the agents\' own files ("codex", "claude").',
  'revive.codex_home': 'Where Codex keeps its sessions. Default: $CODEX_HOME, else ~/.codex.',
  'revive.claude_config_dir': 'Where Claude Code keeps its sessions. Default: $CLAUDE_CONFIG_DIR, else ~/.claude.',
  diagnose: 'An optional external diagnostician consulted about hung descendants.',
  'diagnose.diagnostician':
    'Who diagnoses a hung descendant: "rules" (default), "command", "openai" or "anthropic"; policy checks the answer either way.',
  'diagnose.command':
    'For "command": gets the evidence packet as JSON on stdin, prints the diagnosis contract (docs/diagnosis.md) as its last line.',
  'diagnose.api': 'For "openai": "chat" (Chat Completions) or "responses".',
  'diagnose.base_url':
    'The endpoint. Default https://api.openai.com/v1 ("openai") or https://api.anthropic.com/v1 ("anthropic").',
  'diagnose.model': 'The model to ask; needed for "openai" and "anthropic".',
  'diagnose.api_key_env':
    'The environment variable holding the key (default OPENAI_API_KEY or ANTHROPIC_API_KEY); the key is never stored or printed.',
  budget:
    "SESSION_BUDGET_RISK: limits on the agent's own usage telemetry; over one, deadman checkpoints and respawns (with auto_recover).",
  'budget.tokens': 'Tokens (input + output) the agent reported in this process; 0 is off.',
  'budget.cost_usd': "Claude's total_cost_usd; 0 is off. Nothing is estimated when the agent reports no usage.",
  usage_limit:
    'When the agent hits its plan or usage limit: wait for the reset with the watchdog fed, then resume the session.',
  'diagnose.timeout': 'How long the diagnostician may take; after that the rules decide.',
  'diagnose.signals': `Which signals' evidence packets go to the diagnostician (${CONSULTABLE_SIGNALS.join(', ')}); its guidance goes into the resume prompt or the handoff.`,
  notify: 'Where alerts go: `deadman run` sends them by itself, `deadman notify` by hand or from OnFailure=.',
  'notify.webhook': 'URLs that get each alert as a JSON POST.',
  'notify.healthchecks':
    "A healthchecks.io-style ping URL (…/start, …, …/<exit code>, …/fail when a person is needed, …/log); the body carries the output's tail.",
  'notify.ntfy': 'An ntfy topic URL.',
  'notify.command': 'A command that gets each alert as JSON on stdin.',
  'notify.timeout': 'How long each sink may take; a failing or silent one never holds up the others.',
  'notify.min_interval':
    'The same alert of the same run at most once in this span (a fail: with the same exit code, no success between); a success always goes out.',
  'notify.events':
    "Which alerts `deadman run` sends by itself: start, success, fail (with the exit code and the output's tail), incident (a person is needed: awaiting approval, escalated).",
  'notify.reminder':
    'While an incident still waits for a person, `deadman run` reminds the sinks this often; "off": once only.',
  metrics: "Metrics of the running deadman for Prometheus (node_exporter's textfile collector).",
  'metrics.textfile':
    "A .prom file the running deadman rewrites atomically with this run's metrics; {name} is replaced by the run name.",
  unit: 'The systemd units `deadman unit` and `deadman install` write for this config.',
  'unit.sandbox':
    'Sandboxing of a generated unit: "strict", "default" (never in an agent\'s way) or "off"; --sandbox wins (docs/systemd.md).',
  retention: 'How long records are kept.',
  'retention.max_age': 'Finished runs older than this are deleted with their rows.',
  'retention.max_runs': 'Only the newest this many finished runs are kept.',
  'retention.events_per_run': 'At most this many events are kept per run.',
  'retention.observations_per_run': 'At most this many process-tree observations are kept per run.',
  redact: 'Secrets are hidden before anything is stored, printed, journaled or sent.',
  'redact.patterns': 'Your own regular expressions; each whole match is replaced by [REDACTED].',
  evidence: 'Evidence the work must leave ([[evidence]] claims).',
  jobs: 'Scheduled jobs audited by `deadman check`, by name.',
  job: 'One scheduled job: the evidence it must leave, how long its runs may take, and how to rerun it.',
  'job.rerun':
    'What `deadman check --fix` runs after approval; without it the job is checked, never fixed. An English sentence or a placeholder (/path/to, <…>, YOUR_…, example.com) is refused (docs/check.md).',
  'job.user': 'Run the rerun as this user (when deadman is root).',
  'job.cwd': 'Working directory of the rerun.',
  'job.timeout': 'How long the rerun may take.',
  'job.container':
    "Observe the job's evidence inside this container (podman or docker exec, read-only commands, its paths and clock); file claims only.",
  'job.engine':
    'The engine of `container`: "podman" or "docker". Default: whichever on PATH knows the container, podman first.',
  'job.claim':
    'What the job should leave, in plain English ("a non-empty CSV under /out/export, modified in the last 6 hours"); read by deadman into typed claims (docs/claims.md).',
  'job.evidence': 'The claims that say the job did its work.',
  'job.min_duration':
    "The job's last run must have taken at least this long: a run that ends sooner is dead (too fast); no run known is unknown.",
  'job.max_duration':
    "The job's last run must have taken at most this long, and a run still going is dead once it is over it (too slow).",
  'job.unit': 'The systemd service whose last run min_duration/max_duration judge (its ExecMainStart/ExitTimestamp).',
  'job.manager': '"system" or "user": the service manager that runs `unit`. Default: "system".',
  'job.run': 'The deadman run name whose last recorded run min_duration/max_duration judge (instead of a unit).',
  claim: 'A claim about what the work left: kind = "file", "command", "http" or "sql".',
  'claim.name': 'Names the claim in reports. Default: kind-N.',
  'claim.when':
    '"on_exit": checked after the command exits 0 (dead: exit 65); "always": also every interval while it runs.',
  'claim.interval': 'How often an "always" claim is checked while the command runs.',
  'claim.grace': 'How long an "always" claim may be dead before the watchdog is withheld.',
  'claim.kind': '"file", "command", "http" or "sql".',
  'claim.root': 'Every path must resolve inside this directory (symlinks followed).',
  'claim.path': 'One fixed file (exactly one of path or glob).',
  'claim.glob': 'A glob; the newest match counts (exactly one of path or glob).',
  'claim.non_empty': 'The file must not be empty.',
  'claim.min_bytes': 'The file must have at least this many bytes.',
  'claim.max_age': 'The file must have been modified within this span.',
  'claim.min_lines': 'The file must have at least this many lines.',
  'claim.contains': 'A regular expression that must match in the first or last 1 MiB.',
  'claim.header': "The first line must start with this text (a CSV's column names).",
  'claim.modified_today':
    'The file must have been modified since midnight, by the clock and time zone of the machine that holds it.',
  'claim.time_zone': "The time zone of modified_today's day (default: the zone of the machine that holds the file).",
  'claim.min_count': 'At least this many files must match the glob.',
  'claim.max_count': 'At most this many files may match (0: none left, a drained spool).',
  'claim.command': 'The command to run; it must exit 0.',
  'claim.timeout': 'How long the check may take.',
  'claim.stdout_matches': 'A regular expression its stdout must match.',
  'claim.cwd': 'Working directory of the command.',
  'claim.url': 'The http:// or https:// URL to GET.',
  'claim.status': 'The status or range that counts as alive, e.g. "200" or "200-299".',
  'claim.body_matches': 'A regular expression the body must match.',
  'claim.sqlite': 'A SQLite database file, opened read-only (exactly one of sqlite or postgres).',
  'claim.postgres':
    'A Postgres URI for psql, queried in a read-only transaction; a password in it is never printed or stored.',
  'claim.query': 'One SELECT; deadman counts its rows (it runs as a subquery).',
  'claim.expect': 'What the rows must show; every key given must hold.',
  'claim.expect.min_rows': 'At least this many rows ("a row" is 1).',
  'claim.expect.max_rows': 'At most this many rows (0: nothing left, a drained queue).',
  'claim.expect.dated_today':
    "A column: at least one row whose value falls on today (Postgres: the database's date; SQLite: deadman's clock, local zone).",
};
