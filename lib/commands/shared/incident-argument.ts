import { usageError } from '../../exit-codes.ts';
import { incidentStateAsRead } from '../../io/store/lost-runs.ts';
import { incidentWithRun, type RecordedRun } from '../../io/store/run-ends.ts';
import type { Store } from '../../io/store/store.ts';
import type { CommonArgs, Context } from './command-context.ts';
import { openExistingStore, readRows, settleLost } from './open-existing-store.ts';

/**
 * The incident a person names on the command line (`approve`, `deny`, `ack`): a positive id, in
 * the database that recorded it, read in the state every reader gives it (report, incidents,
 * status) — a lost run is settled first, so its waiting incident reads ABANDONED everywhere.
 */

export interface IncidentAsRead {
  state: string;
  run: RecordedRun | null;
  /** Its run's deadman died without recording an end. */
  lost: boolean;
}

export async function openForIncident(
  args: CommonArgs & { incident: number },
): Promise<{ id: number; store: Store; database: string; context: Context }> {
  const id = args.incident;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw usageError(`"${String(id)}" is not an incident id; see deadman incidents`);
  const { store, database, context } = await openExistingStore(args);
  if (!store)
    throw usageError(
      `no database at ${database}: nothing was recorded there (give --state-dir or --database of the run)`,
    );
  return { id, store, database, context };
}

/** One line (exit 64) when the incident is not recorded there. */
export function incidentAsRead(
  store: Store,
  database: string,
  context: Context,
  id: number,
  now: number,
): IncidentAsRead {
  const found = readRows(database, () => {
    const lost = settleLost(store, context, now);
    const incident = incidentWithRun(store, id);
    return (
      incident && {
        ...incident,
        state: incidentStateAsRead({ id, state: incident.state }, lost),
        lost: incident.run !== null && lost.runIds.has(incident.run.id),
      }
    );
  });
  if (found === null) throw usageError(`incident ${id} is not in ${database}; see deadman incidents`);
  return found;
}
