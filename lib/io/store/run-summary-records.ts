import type { RunSummaryFacts } from '../../core/incident/run-summary.ts';
import type { Store } from './store.ts';

/** The rows behind the run summary (run-summary.ts): the run's passes (`runIds`, in order), their events and their last incident. */
export function loadRunSummary(store: Store, runIds: readonly number[], database: string): RunSummaryFacts | null {
  if (runIds.length === 0) return null;
  const ids = runIds.map(() => '?').join(', ');
  const last = store.get<{
    name: string;
    outcome: string | null;
    exit_code: number | null;
    error_code: string | null;
    reason: string | null;
  }>('SELECT name, outcome, exit_code, error_code, reason FROM runs WHERE id = ?', runIds.at(-1)!);
  if (!last) return null;
  const session = store.get<{ session_id: string }>(
    `SELECT session_id FROM runs WHERE id IN (${ids}) AND session_id IS NOT NULL ORDER BY id DESC LIMIT 1`,
    ...runIds,
  );
  const events = Object.fromEntries(
    store
      .all<{ kind: string; n: number }>(
        `SELECT kind, count(*) AS n FROM events WHERE run_id IN (${ids}) GROUP BY kind`,
        ...runIds,
      )
      .map((r) => [r.kind, r.n]),
  );
  const incidents = store.all<{ id: number; kind: string; state: string; message: string }>(
    `SELECT id, kind, state, message FROM incidents WHERE run_id IN (${ids}) ORDER BY id`,
    ...runIds,
  );
  const incident = incidents.at(-1);
  const of = <T>(sql: string) => (incident ? (store.get<T>(sql, incident.id) ?? null) : null);
  return {
    name: last.name,
    outcome: last.outcome,
    exitCode: last.exit_code,
    errorCode: last.error_code,
    reason: last.reason,
    sessionId: session?.session_id ?? null,
    events,
    passes: runIds.length,
    incidents: incidents.length,
    database,
    incident: incident
      ? {
          ...incident,
          action:
            of<{ kind: string }>('SELECT kind FROM actions WHERE incident_id = ? ORDER BY id DESC LIMIT 1')?.kind ??
            null,
          policy: of<{ verdict: string; reason: string }>(
            'SELECT verdict, reason FROM decisions WHERE incident_id = ? ORDER BY id DESC LIMIT 1',
          ),
          verification: of<{ verdict: string; detail: string }>(
            'SELECT verdict, detail FROM verifications WHERE incident_id = ? ORDER BY id DESC LIMIT 1',
          ),
        }
      : null,
  };
}
