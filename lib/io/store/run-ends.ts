import {
  ABANDONED_ON_RUN_END,
  transition,
  type IncidentEvent,
  type IncidentState,
} from '../../core/incident/incident.ts';
import { betweenPasses, lostRunReason } from '../../core/status/run-presence.ts';
import { lostRunEnd, type ServiceStop } from '../../core/status/lost-run-end.ts';
import { OUTCOME_ERROR_CODES } from '../../core/incident/outcome-codes.ts';
import type { Store } from './store.ts';

/**
 * How a run's end reaches its incidents: whatever it left unsettled (waiting for approval, in
 * recovery) becomes ABANDONED with the reason, when the run records its end, when the next run
 * of its name finds its deadman dead, or when a reader does. An incident belongs to the latest
 * run it recurred in (or the run that opened it).
 */

export interface RecordedRun {
  id: number;
  name: string;
  pid: number;
  /** Missing from rows written before migration 4. */
  pid_start_time?: number | null;
  /** Missing from rows written before migration 4: such a run takes no answer. */
  token?: string | null;
  outcome: string | null;
  signal: string | null;
  ended_at: number | null;
  exit_code?: number | null;
  invocation_id?: string | null;
  /** Missing from rows written before migration 6. */
  lost?: number | null;
}

/** A row the live check decides: no end yet, or between two passes of one deadman. */
export type OpenRunRow = RecordedRun;

/** The latest run an incident recurred in, else the run that opened it (a database before migration 2 has no recurrences). */
export const owningRun = (store: Store) =>
  store.hasTable('incident_recurrences')
    ? 'COALESCE((SELECT MAX(c.run_id) FROM incident_recurrences c WHERE c.incident_id = i.id), i.run_id)'
    : 'i.run_id';
const UNSETTLED = ABANDONED_ON_RUN_END.map((state) => `'${state}'`).join(', ');

/**
 * Runs whose deadman may still be at work (of one name, or all): no end recorded, or the
 * latest row of its name is a pass the same deadman goes on from (core/status/run-presence.ts).
 * Each is live or lost, which the caller checks.
 */
export function openRuns(store: Store, name?: string): OpenRunRow[] {
  const rows = store.all<RecordedRun>(
    `SELECT * FROM runs r WHERE (? IS NULL OR r.name = ?) AND (r.ended_at IS NULL OR r.id = (SELECT MAX(id) FROM runs WHERE name = r.name)) ORDER BY r.id`,
    name ?? null,
    name ?? null,
  );
  return rows.filter((run): run is OpenRunRow => run.ended_at === null || betweenPasses(run));
}

/** The incidents a run leaves unsettled, in the order they were opened. */
export function unsettledIncidents(store: Store, runId: number): Array<{ id: number; state: string }> {
  return store.all(
    `SELECT i.id, i.state FROM incidents i WHERE i.state IN (${UNSETTLED}) AND ${owningRun(store)} = ? ORDER BY i.id`,
    runId,
  );
}

/** Marks them ABANDONED, each with a transition saying why (inside the caller's transaction); returns their ids. */
export function abandonIncidents(store: Store, runId: number, at: number, reason: string): number[] {
  return unsettledIncidents(store, runId)
    .filter((incident) => moveIncident(store, incident, 'run_ended', at, reason, { run: runId }))
    .map((incident) => incident.id);
}

/** One recorded move of an incident by the state table (core/incident/incident.ts); false when the event does not apply to its state. */
export function moveIncident(
  store: Store,
  incident: { id: number; state: string },
  event: IncidentEvent,
  at: number,
  reason: string,
  evidence: object,
): boolean {
  const to = transition(incident.state as IncidentState, event, 0);
  if (to === null) return false;
  store.insert('incident_transitions', {
    incident_id: incident.id,
    at,
    from_state: incident.state,
    to_state: to,
    reason,
    evidence,
  });
  store.update('incidents', incident.id, { state: to, updated_at: at });
  return true;
}

/**
 * A run whose deadman died without recording an end gets one now (core/status/lost-run-end.ts):
 * `lost` (or the stall it recorded), what ended it when systemd said so, and its incidents ABANDONED.
 */
export function closeLostRun(store: Store, run: OpenRunRow, at: number, stop: ServiceStop | null = null): void {
  const end = lostRunEnd(run, stop);
  store.transaction(() => {
    store.update('runs', run.id, {
      ended_at: run.ended_at ?? at,
      ...end,
      ...(run.outcome ? {} : { error_code: OUTCOME_ERROR_CODES.lost }),
    });
    abandonIncidents(store, run.id, at, lostRunReason(run));
  });
}

/** An incident with the run it belongs to now (null when its run was pruned). */
export function incidentWithRun(store: Store, incidentId: number): { state: string; run: RecordedRun | null } | null {
  const incident = store.get<{ state: string; run_id: number | null }>(
    `SELECT i.state, ${owningRun(store)} AS run_id FROM incidents i WHERE i.id = ?`,
    incidentId,
  );
  if (!incident) return null;
  const run =
    incident.run_id === null
      ? null
      : (store.get<RecordedRun>('SELECT * FROM runs WHERE id = ?', incident.run_id) ?? null);
  return { state: incident.state, run };
}

/**
 * The process's own exit on this deadman's last row, when the passes ended otherwise than that
 * pass did: a usage limit that resets beyond `max_wait`, or a respawn budget spent, end the run
 * 69 after a pass that recorded 75. Readers then show and export what the run really came to.
 */
export function recordProcessExit(
  store: Store,
  owner: { pid: number; startTime: number | null },
  exitCode: number,
  why: string,
): void {
  const last = store.get<{ id: number; exit_code: number | null; reason: string | null }>(
    'SELECT id, exit_code, reason FROM runs WHERE pid = ? AND pid_start_time IS ? AND ended_at IS NOT NULL ORDER BY id DESC LIMIT 1',
    owner.pid,
    owner.startTime,
  );
  if (last && last.exit_code !== exitCode)
    store.update('runs', last.id, {
      exit_code: exitCode,
      reason: `${last.reason ?? ''}${last.reason ? '; ' : ''}${why}`,
    });
}
