import type { RunFacts } from '../../core/metrics/run-metrics.ts';
import { runPresence } from '../../core/status/run-presence.ts';
import { runRowState, type StatusRun } from '../../core/status/run-status-rows.ts';
import { isSettled } from '../../core/incident/incident.ts';
import { incidentStateAsRead, type LostRuns } from './lost-runs.ts';
import type { Store } from './store.ts';

/**
 * The facts `deadman metrics` shows, per run name, from the database: the latest run (running
 * only while its deadman is: core/status/run-presence.ts), the incidents of the name that still
 * wait on something (ESCALATED included: a person must look), and totals over the runs the
 * retention kept.
 */
export function loadRunFacts(store: Store, options: { onlyName?: string; lost?: LostRuns } = {}): RunFacts[] {
  const { onlyName, lost } = options;
  // One name: the running deadman's own textfile, refreshed every few seconds.
  // r.*: a reader of a database before migration 6 finds no `lost` column (core/status/run-presence.ts reads those rows by signal).
  const latest = store.all<StatusRun>(
    `SELECT r.* FROM runs r
      WHERE r.id = (SELECT id FROM runs WHERE name = r.name ORDER BY started_at DESC, id DESC LIMIT 1)${onlyName === undefined ? '' : ' AND r.name = ?'} ORDER BY r.name`,
    ...(onlyName === undefined ? [] : [onlyName]),
  );
  return latest.map((run) => {
    const open = store
      .all<{ id: number; kind: string; state: string; run_id: number }>(
        `SELECT i.id, i.kind, i.state, i.run_id FROM incidents i JOIN runs r ON r.id = i.run_id WHERE r.name = ? ORDER BY i.kind, i.state`,
        run.name,
      )
      .map((incident) => ({ ...incident, state: incidentStateAsRead(incident, lost) }))
      .filter((incident) => !isSettled(incident.state));
    const lastOutput =
      store.get<{ at: number | null }>('SELECT MAX(at) AS at FROM events WHERE run_id = ?', run.id)?.at ?? null;
    const count = (sql: string) => store.get<{ n: number }>(sql, run.name)?.n ?? 0;
    const ownerAlive = !lost?.runIds.has(run.id);
    const running = runPresence(run, ownerAlive) === 'running';
    return {
      name: run.name,
      running,
      state: runRowState(run, ownerAlive),
      healthy: running && !open.some((incident) => incident.run_id === run.id),
      startedAt: run.started_at,
      endedAt: running ? null : run.ended_at,
      lastOutputAt: lastOutput,
      lastExitCode: running || run.ended_at === null ? null : run.exit_code,
      openIncidents: countByKindAndState(open),
      revives: count('SELECT COUNT(*) AS n FROM revives WHERE name = ?'),
      kills:
        count(`SELECT COUNT(*) AS n FROM actions a JOIN incidents i ON i.id = a.incident_id JOIN runs r ON r.id = i.run_id
        WHERE r.name = ? AND a.kind = 'TERMINATE_DESCENDANT_PROCESS' AND a.result IN ('killed', 'partial')`),
      stalls: count(`SELECT COUNT(*) AS n FROM runs WHERE name = ? AND outcome = 'stalled'`),
    };
  });
}

function countByKindAndState(
  incidents: ReadonlyArray<{ kind: string; state: string }>,
): Array<{ kind: string; state: string; count: number }> {
  const counts = new Map<string, { kind: string; state: string; count: number }>();
  for (const { kind, state } of incidents) {
    const key = `${kind}\0${state}`;
    counts.set(key, { kind, state, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  return [...counts.values()];
}
