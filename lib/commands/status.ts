import type { CommandModule, Options } from 'yargs';
import { adapterOptions } from '../core/adapters/index.ts';
import {
  renderStatus,
  statusJson,
  statusRows,
  type StatusIncident,
  type StatusMarker,
  type StatusRun,
} from '../core/status/run-status-rows.ts';
import { ExitCode, usageError } from '../exit-codes.ts';
import { isSettled } from '../core/incident/incident.ts';
import { listIncidents } from '../io/store/incident-records.ts';
import { listMarkers } from '../io/revive/markers.ts';
import { printSync } from '../io/output/print-sync.ts';
import { liveSessionPid } from '../io/revive/live-session.ts';
import { settleEndedResume } from '../io/revive/revive-log.ts';
import { loadContext, stateOptions, type CommonArgs, type Context } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import { StoreError } from '../io/store/store-errors.ts';
import { createLogger } from '../io/log/log.ts';
import { openExistingStore, readRows, settleLost, withAbandoned } from './shared/open-existing-store.ts';
import { pathState } from './shared/path-state.ts';

/**
 * `deadman status [--json]`: one line per run name — state, session, age, revives, open
 * incident. Exits 1 when any run needs attention (like `check`) or an incident waits on a
 * person. "Running" comes from a live check of the run's deadman; a dead one's unsettled
 * incidents are ABANDONED (recorded only by the database's owner: io/store/lost-runs.ts).
 */

interface StatusArgs extends CommonArgs {
  json?: boolean;
}

/** Defined once: yargs shows them in --help, the lean reader (lean-readers.ts) parses with them. */
export const STATUS_OPTIONS = {
  json: { type: 'boolean', describe: 'print a JSON array (snake_case keys, ISO-8601 UTC times; docs/status.md)' },
  ...stateOptions,
} as const satisfies Record<string, Options>;

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status',
  describe:
    'one line per run: state, session, age, revive count, open incident; exit 1 when any needs attention or a person (docs/status.md)',
  builder: (y) => y.options(STATUS_OPTIONS),
  handler: async (args) => {
    const context = await loadContext(args);
    const now = context.clock.wall();
    const database = context.paths.database;
    // A database named by hand that is not there is a typo, not an empty history.
    if ((args.database !== undefined || args['state-dir'] !== undefined) && pathState(database) === 'missing') {
      throw usageError(
        `database ${database} does not exist; check --database / --state-dir (deadman config check shows the paths)`,
      );
    }
    const markers = await statusMarkers(context, now);
    const recorded = await readRecords(args, context, now);
    const rows = statusRows(
      markers,
      recorded.runs,
      recorded.incidents,
      (run) => !recorded.lost.has(run.id),
      await refusals(recorded.incidents),
    );
    const maxRevives = context.config.revive.max_revives;
    const redactor = redactorFor(context.config);
    printSync(
      args.json
        ? `${JSON.stringify(redactor.value(statusJson(rows, maxRevives)), null, 2)}\n`
        : redactor.text(renderStatus(rows, now, maxRevives)),
    );
    process.exitCode = rows.some((row) => row.needsAttention) ? ExitCode.ATTENTION : ExitCode.OK;
  },
};

/** Which kinds are refusals: the signal registry, and every detector with it, loads only when an incident is open. */
async function refusals(incidents: readonly StatusIncident[]): Promise<(kind: string) => boolean> {
  if (incidents.every((incident) => isSettled(incident.state))) return () => false;
  const { signalRow } = await import('../core/signals/registry.ts');
  return (kind) => signalRow(kind)?.refusal === true;
}

/** The markers as they stand, an ended detached resume settled in memory only. */
async function statusMarkers(context: Context, now: number): Promise<StatusMarker[]> {
  const reads = await listMarkers(context.paths.markerDir, { setAside: false });
  return Promise.all(
    reads.map(async (read): Promise<StatusMarker> => {
      if (read.status !== 'ok')
        return {
          name: read.name,
          marker: null,
          problem: read.status === 'missing' ? null : read.problem,
          livePid: null,
        };
      const marker = await settleEndedResume(read.marker, now, adapterOptions(context.config.generic));
      return { name: read.name, marker, problem: null, livePid: liveSessionPid(marker) };
    }),
  );
}

/**
 * The database's part of the status, read-only. One that cannot be read (damaged) costs only
 * its rows: the markers still tell which runs exist, so status says what it could not read.
 */
async function readRecords(
  args: StatusArgs,
  context: Context,
  now: number,
): Promise<{ runs: StatusRun[]; incidents: StatusIncident[]; lost: ReadonlySet<number> }> {
  const none = { runs: [], incidents: [], lost: new Set<number>() };
  let opened: Awaited<ReturnType<typeof openExistingStore>> | null = null;
  try {
    opened = await openExistingStore(args, context);
    const { store, database } = opened;
    if (!store) return none;
    return readRows(database, () => {
      const lost = settleLost(store, context, now);
      return {
        runs: store.all<StatusRun>(
          'SELECT r.* FROM runs r JOIN (SELECT MAX(id) AS id FROM runs GROUP BY name) latest ON latest.id = r.id',
        ),
        incidents: withAbandoned(listIncidents(store), lost),
        lost: lost.runIds,
      };
    });
  } catch (error) {
    // Permission denied (a DeadmanError, exit 74) and a link refused are said as such: the markers alone would read as "nothing here".
    if (!(error instanceof StoreError) || error.problem === 'link') throw error;
    createLogger().log('warn', `${error.message}; showing the markers only`);
    return none;
  } finally {
    opened?.store?.close();
  }
}
