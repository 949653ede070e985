import type { CommandModule } from 'yargs';
import { renderStatus, statusRows, type StatusIncident, type StatusMarker, type StatusRun } from '../core/status/run-status-rows.ts';
import { systemClock } from '../io/clock.ts';
import { listIncidents } from '../io/store/incident-records.ts';
import { isOwnerAlive, listMarkers } from '../io/revive/markers.ts';
import { databaseOption, loadContext, type CommonArgs } from './command-context.ts';
import { openExistingStore } from './open-existing-store.ts';

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
    const markers: StatusMarker[] = (await listMarkers(context.paths.markerDir, { setAside: false })).map((read) => read.status === 'ok'
      ? { name: read.name, marker: read.marker, problem: null, ownerAlive: isOwnerAlive(read.marker.owner) }
      : { name: read.name, marker: null, problem: read.status === 'problem' ? read.problem : null, ownerAlive: false });
    const { store } = await openExistingStore(args);
    let runs: StatusRun[] = [];
    let incidents: StatusIncident[] = [];
    try {
      if (store) {
        runs = store.all<StatusRun>(`SELECT r.name, r.session_id, r.started_at, r.ended_at, r.outcome, r.pid
          FROM runs r JOIN (SELECT MAX(id) AS id FROM runs GROUP BY name) latest ON latest.id = r.id`);
        incidents = listIncidents(store);
      }
    } finally {
      store?.close();
    }
    const rows = statusRows(markers, runs, incidents);
    const maxRevives = context.config.revive.max_revives;
    process.stdout.write(args.json ? `${JSON.stringify(rows.map((row) => ({ ...row, maxRevives })), null, 2)}\n` : renderStatus(rows, now, maxRevives));
  },
};
