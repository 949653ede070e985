import type { CommandModule } from 'yargs';
import { renderStatus, statusRows, type StatusIncident, type StatusMarker, type StatusRun } from '../core/status/run-status-rows.ts';
import { systemClock } from '../io/clock.ts';
import { listIncidents } from '../io/store/incident-records.ts';
import { isOwnerAlive, listMarkers } from '../io/revive/markers.ts';
import { databaseOption, loadContext, redactorFor, type CommonArgs, type Context } from './command-context.ts';
import { StoreError } from '../io/store/store-errors.ts';
import { createLogger } from '../io/log.ts';
import { openExistingStore, readRows } from './open-existing-store.ts';

/** `deadman status [--json]`: one line per run name — state, session, age, revives, open incident. */

interface StatusArgs extends CommonArgs {
  json?: boolean;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status',
  describe: 'one line per run: state, session, age, revive count, open incident',
  builder: (y) => y
    .option('json', { type: 'boolean', describe: 'print a JSON array' })
    .option('database', databaseOption),
  handler: async (args) => {
    const context = await loadContext(args);
    const now = systemClock.wall();
    const markers: StatusMarker[] = (await listMarkers(context.paths.markerDir)).map((read) => read.status === 'ok'
      ? { name: read.name, marker: read.marker, problem: null, ownerAlive: isOwnerAlive(read.marker.owner) }
      : { name: read.name, marker: null, problem: read.status === 'problem' ? read.problem : null, ownerAlive: false });
    const { runs, incidents } = await readRunsAndIncidents(args, context);
    const rows = statusRows(markers, runs, incidents);
    const maxRevives = context.config.revive.max_revives;
    const redactor = redactorFor(context.config);
    process.stdout.write(args.json
      ? `${JSON.stringify(redactor.value(rows.map((row) => ({ ...row, maxRevives }))), null, 2)}\n`
      : redactor.text(renderStatus(rows, now, maxRevives)));
  },
};

/**
 * The database's part of the status. One that cannot be read (damaged) costs only its rows:
 * the markers still tell which runs exist, so status says what it could not read and goes on.
 */
async function readRunsAndIncidents(args: StatusArgs, context: Context): Promise<{ runs: StatusRun[]; incidents: StatusIncident[] }> {
  let opened: Awaited<ReturnType<typeof openExistingStore>> | null = null;
  try {
    opened = await openExistingStore(args, context);
    const { store, database } = opened;
    if (!store) return { runs: [], incidents: [] };
    return readRows(database, () => ({
      runs: store.all<StatusRun>(`SELECT r.name, r.session_id, r.started_at, r.ended_at, r.outcome, r.pid
        FROM runs r JOIN (SELECT MAX(id) AS id FROM runs GROUP BY name) latest ON latest.id = r.id`),
      incidents: listIncidents(store),
    }));
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    createLogger().log('warn', `${error.message}; showing the markers only`);
    return { runs: [], incidents: [] };
  } finally {
    opened?.store?.close();
  }
}
