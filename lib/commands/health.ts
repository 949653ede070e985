import type { CommandModule, Options } from 'yargs';
import { readFileSync } from 'node:fs';
import { judgeHealth, parseHealthRecord, type HealthRecord, type HealthVerdict } from '../core/status/health.ts';
import { ExitCode, usageError } from '../exit-codes.ts';
import { healthFilePath } from '../io/health/health-file.ts';
import { printSync } from '../io/output/print-sync.ts';
import { isRunOwnerAlive } from '../io/process/run-owner.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';
import { isDenied, pathState, permissionDenied } from './shared/path-state.ts';

/**
 * `deadman health --name N`: exit 0 while run N is healthy, 1 when it is not (stalled, its
 * deadman gone, or wedged), 64 when no run of that name wrote a health file there — for
 * livenessProbe.exec, HEALTHCHECK and Nomad checks. Reads only the health file and /proc, so it
 * is cheap and works while deadman itself is wedged (then the file goes stale). A dead deadman's
 * run is settled as every reader settles it (its end, its incidents, the `[metrics] textfile`):
 * so generated units run `deadman health --quiet --settle` as ExecStopPost=, which systemd starts
 * after the main process ended for any reason, SIGKILL and the watchdog's abort included. There
 * the question is how the service ended, not whether a run that is over is healthy: `--settle`
 * answers with systemd's word ($SERVICE_RESULT), so a clean exit is no red FAILURE line.
 */

interface HealthArgs extends CommonArgs {
  name?: string;
  quiet?: boolean;
  json?: boolean;
  settle?: boolean;
}

/** Defined once: yargs shows them in --help, the lean reader (lean-readers.ts) parses with them. */
export const HEALTH_OPTIONS = {
  name: { type: 'string', describe: 'the run to judge (default: name from the config)' },
  quiet: { type: 'boolean', describe: 'print nothing; the exit code says it' },
  settle: {
    type: 'boolean',
    describe:
      'for ExecStopPost=: settle a run whose deadman is gone, then exit 0 when systemd says the service ended well ($SERVICE_RESULT=success), 1 when not',
  },
  json: { type: 'boolean', describe: 'print one JSON object (snake_case keys, ISO-8601 UTC times; docs/cli-json.md)' },
  ...stateOptions,
} as const satisfies Record<string, Options>;

/** Options that may not be given together. */
export const HEALTH_CONFLICT = ['json', 'quiet'] as const;

export const healthCommand: CommandModule<object, HealthArgs> = {
  command: 'health',
  describe:
    'exit 0 while the run is healthy, 1 when not (stalled, its deadman gone), 64 for no such run (for liveness probes and HEALTHCHECK)',
  builder: (y) => y.options(HEALTH_OPTIONS).conflicts(...HEALTH_CONFLICT),
  handler: async (args) => {
    const context = await loadContext(args);
    const name = args.name ?? context.config.name;
    if (!name) throw usageError('name the run: deadman health --name NAME (or set name in the config)');
    const record = readHealthFile(healthFilePath(context.paths.stateDir, name));
    const ownerAlive = record !== null && isRunOwnerAlive(record);
    // No file at all: a deadman killed before its first refresh may still have left a run open.
    if (!ownerAlive) await settleRecords(args, context);
    const stop = args.settle ? (context.serviceStop ?? null) : null;
    const verdict = stop
      ? endedVerdict(name, stop.result)
      : judgeHealth(record, context.clock.wall(), name, ownerAlive);
    if (args.json) {
      const json = {
        name,
        healthy: verdict.healthy,
        refreshed_at: record ? new Date(record.updated_at).toISOString() : null,
        last_status: record?.status ?? null,
        detail: verdict.line,
      };
      printSync(`${JSON.stringify(json, null, 2)}\n`);
    } else if (!args.quiet) printSync(`${verdict.line}\n`);
    // A name no run ever had is a mistake on the command line, not a dead run.
    if (!verdict.known) process.exitCode = ExitCode.USAGE;
    else if (!verdict.healthy) process.exitCode = ExitCode.ATTENTION;
  },
};

/** Under ExecStopPost= (`--settle`): the run is over, and systemd says how the service ended. */
function endedVerdict(name: string, result: string): HealthVerdict {
  return { healthy: result === 'success', known: true, line: `${name}: ended; systemd says ${result}` };
}

/**
 * The deadman is gone: its run and incidents are closed as any reader closes them; the probe's
 * answer does not wait on the database. Loaded only then: a probe of a live run reads no database
 * and loads neither the store nor the lost-run code (issue 36.1).
 */
async function settleRecords(args: HealthArgs, context: Context): Promise<void> {
  try {
    const { openExistingStore, settleLost } = await import('./shared/open-existing-store.ts');
    const { store } = await openExistingStore(args, context);
    if (!store) return;
    try {
      settleLost(store, context, context.clock.wall());
    } finally {
      store.close();
    }
  } catch {
    // Unreadable or locked: the health file already told the truth.
  }
}

/** Null when there is none (or it is damaged); one this user may not read is exit 74. */
function readHealthFile(path: string): HealthRecord | null {
  if (pathState(path) === 'missing') return null;
  try {
    return parseHealthRecord(readFileSync(path, 'utf8'));
  } catch (error) {
    if (isDenied(error)) throw permissionDenied(path);
    return null;
  }
}
