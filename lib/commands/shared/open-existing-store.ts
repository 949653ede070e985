import { accessSync, constants, existsSync } from 'node:fs';
import { metricsTextfileOf, writeMetricsTextfile } from '../../io/health/metrics-textfile.ts';
import { incidentStateAsRead, lostRunTextfiles, settleLostRuns, type LostRuns } from '../../io/store/lost-runs.ts';
import { loadRunFacts } from '../../io/store/run-facts.ts';
import { Store } from '../../io/store/store.ts';
import { refuseLinks } from '../../io/store/store-open.ts';
import { storeError, StoreError } from '../../io/store/store-errors.ts';
import { loadContext, type CommonArgs, type Context } from './command-context.ts';
import { isDenied, pathState, permissionDenied } from './path-state.ts';

/**
 * Opens the database read-only for the commands that only read (`status`, `incidents`,
 * `report`, `metrics`): nothing is created, migrated or chmodded, so they work on a read-only
 * file system, and on a machine where nothing ran yet (no file, or an empty one) "no incidents"
 * is the answer, not a new file. A database that cannot be read is one line (exit 74), never a
 * stack trace — and one this user may not read is said as such, never as "nothing recorded".
 */
export async function openExistingStore(
  args: CommonArgs,
  loaded?: Context,
): Promise<{ store: Store | null; database: string; context: Context }> {
  const context = loaded ?? (await loadContext(args));
  const database = context.paths.database;
  if (pathState(database) === 'missing') return { store: null, database, context };
  try {
    refuseLinks(database); // before access(), which follows one
    accessSync(database, constants.R_OK);
    return { store: schemaOrNothing(new Store(database, { readOnly: true })), database, context };
  } catch (error) {
    if (isDenied(error)) throw permissionDenied(database);
    throw unreadable(database, error);
  }
}

/**
 * A database with no tables yet — 0 bytes, left by a run killed before its first commit — holds
 * nothing recorded: every reader says so, as for a missing file, and the next run initialises it.
 */
function schemaOrNothing(store: Store): Store | null {
  if (store.hasTable('runs')) return store;
  store.close();
  return null;
}

/** Runs the reads of one command; a database that fails part-way (damaged pages) is one line, exit 74. */
export function readRows<T>(database: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw unreadable(database, error);
  }
}

/** Incidents as a reader reports them: those of runs found lost are ABANDONED, written or not. */
export function withAbandoned<T extends { id: number; state: string }>(incidents: readonly T[], lost: LostRuns): T[] {
  return incidents.map((incident) => ({ ...incident, state: incidentStateAsRead(incident, lost) }));
}

function unreadable(database: string, error: unknown): StoreError {
  const problem = storeError(database, error);
  if (problem.problem !== 'corrupt') return problem;
  return new StoreError(
    `${problem.message}; the next deadman run moves it aside and starts a fresh one, or move it aside yourself`,
    'corrupt',
  );
}

/**
 * What every reader does first: finds the runs whose deadman is gone (io/store/lost-runs.ts),
 * and rewrites the `[metrics] textfile` such a run left saying "running, healthy" (only a file
 * that is there: a reader creates none), so node_exporter stops serving what a dead process
 * last wrote once anything reads (`deadman metrics` on a timer, a `deadman health` probe). The
 * file is the one the run row names, so a reader without the run's config finds it too; the
 * config's template only for rows of an older deadman. Run as ExecStopPost=, it records what
 * systemd says ended the unit's deadman (io/service-stop-env.ts).
 */
export function settleLost(store: Store, context: Context, now: number): LostRuns {
  const lost = settleLostRuns(store, now, context.serviceStop ?? null);
  if (lost.runIds.size === 0) return lost;
  const textfiles = lostRunTextfiles(store, lost.runIds);
  for (const facts of loadRunFacts(store, { lost })) {
    const path = textfiles.get(facts.name) ?? metricsTextfileOf(context.config.metrics.textfile, facts.name);
    if (facts.running || !textfiles.has(facts.name) || path === null || !existsSync(path)) continue;
    try {
      writeMetricsTextfile(path, facts);
    } catch {
      // Not ours to write (another user's collector directory): the file's age still tells.
    }
  }
  return lost;
}
