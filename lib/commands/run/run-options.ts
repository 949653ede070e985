import { parseArgs } from 'node:util';
import type { Config } from '../../core/config/config.ts';
import { commandLineProblem } from '../../core/config/command-line.ts';
import { runArgsLine } from '../../core/config/usage-words.ts';
import { usageError } from '../../exit-codes.ts';
import { stateOptions } from '../shared/command-context.ts';
import { ADAPTER_VALUES, ON_STALL_VALUES, STDIN_VALUES } from '../../core/config/enum-values.ts';

/**
 * The options of `deadman run`, defined once: yargs builds `--help` from this table and the
 * lean start-up path parses with node:util's parseArgs from the same table. Every option that
 * names a config key (`--hung-timeout` ↔ `hung_timeout`) wins over the file.
 */
export interface RunOption {
  type: 'string' | 'boolean';
  multiple?: true;
  describe: string;
  /** Numeric config keys get numbers, so the schema can check their range. */
  numeric?: true;
  /** A flag of this run only, naming no config key. */
  runOnly?: true;
  /** The values the config key takes, for the shell completions; the config schema checks them (exit 78 as from the file). */
  choices?: readonly string[];
}

export const RUN_OPTIONS = {
  name: {
    type: 'string',
    describe:
      "name of this run (revive marker, records); default: the unit name, else the command's basename and a hash of the command (codex-3f2a9c)",
  },
  ...stateOptions,
  inactivity: {
    type: 'string',
    describe: 'stall after this long with no output and an idle process tree (default 30min; "off" disables)',
  },
  timeout: { type: 'string', describe: 'cap on wall time; the run is stopped and exits 124 (default off)' },
  'on-stall': {
    type: 'string',
    choices: ON_STALL_VALUES,
    describe:
      'withhold (stop feeding the systemd watchdog) or exit (stop the tree, exit 75); default: withhold under a systemd watchdog, else exit',
  },
  'stop-grace': {
    type: 'string',
    describe: 'time between the forwarded stop signal and SIGKILL of the whole tree (default 10s)',
  },
  'ready-pattern': {
    type: 'string',
    describe: 'send READY=1 when an output line matches this regex (supervised servers)',
  },
  'ready-port': { type: 'string', numeric: true, describe: 'send READY=1 when 127.0.0.1:PORT accepts connections' },
  'ready-timeout': { type: 'string', describe: 'give up waiting for readiness after this long (default 90s)' },
  stdin: { type: 'string', choices: STDIN_VALUES, describe: 'null (default: the command reads /dev/null) or inherit' },
  adapter: {
    type: 'string',
    choices: ADAPTER_VALUES,
    describe: "auto (default), codex, claude or generic: how to read the command's output",
  },
  'auto-recover': {
    type: 'boolean',
    describe: 'let deadman kill hung owned descendants (off by default: incidents wait for approval)',
  },
  'hung-timeout': {
    type: 'string',
    describe: 'a descendant subtree with no CPU, I/O or process change for this long is hung (default 60s)',
  },
  'kill-grace': { type: 'string', describe: 'time between SIGTERM and SIGKILL for a hung subtree (default 5s)' },
  poll: { type: 'string', describe: 'how often the process tree is observed (default 1s)' },
  'verify-window': { type: 'string', describe: 'how long a recovery has to show new output (default 60s)' },
  'exit-grace': {
    type: 'string',
    describe:
      'an agent still running this long after its final result is stopped, and the run exits with the result\'s verdict (default 30s; "off" disables)',
  },
  ignore: {
    type: 'string',
    multiple: true,
    describe: 'regex on a command line that is never a kill target (repeatable)',
  },
  'health-listen': {
    type: 'string',
    runOnly: true,
    describe:
      "serve the health answer (deadman health's) over HTTP at HOST:PORT for httpGet probes: 200 healthy, 503 not; loopback only unless --health-public",
  },
  'health-public': {
    type: 'boolean',
    runOnly: true,
    describe: "let --health-listen take an address other hosts can reach (a Kubernetes probe comes to the pod's IP)",
  },
  quiet: {
    type: 'boolean',
    runOnly: true,
    describe: 'print problems only (warnings, errors, a run that did not end 0): nothing when all is well, for cron',
  },
  summary: {
    type: 'boolean',
    runOnly: true,
    describe: 'end with the summary block even when stderr is not a terminal (default there: one summary line)',
  },
  // Not `--json`: that is the agent's flag, and `deadman run --json -- codex …` must stay a usage error.
  'summary-json': {
    type: 'boolean',
    runOnly: true,
    describe: 'end with the run summary as one JSON object on stderr instead of the text block',
  },
  record: {
    type: 'string',
    runOnly: true,
    describe:
      'write a trace of this run (every agent process: output, tree observations, exit; secrets redacted) to FILE, a new file made 0600 (one already there is refused), for deadman replay FILE',
  },
} as const satisfies Record<string, RunOption>;

export type RunOptionName = keyof typeof RUN_OPTIONS;

/** Flag values (kebab-case) → config keys (snake_case), leaving out flags not given. */
export function flagsToConfig(values: Record<string, unknown>): Partial<Record<keyof Config, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [flag, option] of Object.entries(RUN_OPTIONS) as Array<[string, RunOption]>) {
    const value = values[flag];
    if (value === undefined || option.runOnly) continue;
    out[flag.replaceAll('-', '_')] =
      option.numeric && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return out;
}

export type RunValues = {
  [K in RunOptionName]?: (typeof RUN_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string | string[];
} & { config?: string };

const LEAN_OPTIONS = { ...RUN_OPTIONS, config: { type: 'string' } } as const;
const OPTION_TABLE = new Map(Object.entries(LEAN_OPTIONS).map(([name, option]) => [name, option.type === 'string']));

/**
 * The lean parser: node:util parseArgs over the same option table yargs shows in --help. An
 * unknown option or a program without its `--` is refused before anything runs, with the
 * same did-you-mean as every other command. The program may also come from the config.
 */
export function parseRunArgs(argv: string[]): { values: RunValues; command: string[] } {
  const separator = argv.indexOf('--');
  const own = separator === -1 ? argv : argv.slice(0, separator);
  const command = separator === -1 ? [] : argv.slice(separator + 1);
  const problem = commandLineProblem(own, { command: 'run', options: OPTION_TABLE, takesProgram: true });
  if (problem !== null) throw usageError(problem);
  try {
    const { values } = parseArgs({ args: own, options: LEAN_OPTIONS, strict: true, allowPositionals: false });
    return { values: values as RunValues, command };
  } catch (error) {
    throw usageError(runArgsLine((error as Error).message));
  }
}
