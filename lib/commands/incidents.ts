import type { CommandModule } from 'yargs';
import { parseDuration } from '../core/time/duration.ts';
import { incidentListJson, renderIncidentList } from '../core/incident/report-text.ts';
import { usageError } from '../exit-codes.ts';
import { listIncidents } from '../io/store/incident-records.ts';
import { stateOptions, type CommonArgs } from './shared/command-context.ts';
import { redactorFor } from './shared/open-store.ts';
import { openExistingStore, readRows, settleLost, withAbandoned } from './shared/open-existing-store.ts';
import { snakeCaseKeys } from '../core/status/snake-case.ts';

/** `deadman incidents [--since DUR] [--name N] [--json]`: one line per incident, oldest first. */

interface IncidentsArgs extends CommonArgs {
  since?: string;
  name?: string;
  json?: boolean;
}

export const incidentsCommand: CommandModule<object, IncidentsArgs> = {
  command: 'incidents',
  describe: 'list recorded incidents, oldest first',
  builder: (y) =>
    y
      .option('since', {
        type: 'string',
        describe: 'only incidents opened within this span, e.g. 24h or 7d (default: all kept)',
      })
      .option('name', { type: 'string', describe: 'only incidents of runs with this name' })
      .option('json', { type: 'boolean', describe: 'print a JSON array' })
      .options(stateOptions),
  handler: async (args) => {
    // A bad --since is refused before the database is looked at.
    const span = args.since === undefined ? undefined : sinceSpan(args.since);
    const { store, database, context } = await openExistingStore(args);
    const now = context.clock.wall();
    const since = span === undefined ? undefined : now - span;
    const redactor = redactorFor(context.config);
    try {
      // Those of a run whose deadman is gone are ABANDONED, as every reader says.
      const rows = redactor.value(
        readRows(database, () =>
          store ? withAbandoned(listIncidents(store, { since, name: args.name }), settleLost(store, context, now)) : [],
        ),
      );
      process.stdout.write(
        args.json
          ? `${JSON.stringify(snakeCaseKeys(incidentListJson(rows)), null, 2)}\n`
          : renderIncidentList(rows, now),
      );
    } finally {
      store?.close();
    }
  },
};

function sinceSpan(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw usageError(`--since "${text}" ${parsed.error}`);
  return parsed.ms === 0 ? Number.POSITIVE_INFINITY : parsed.ms;
}
