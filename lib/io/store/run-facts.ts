import type { RunFacts } from '../../core/metrics/run-metrics.ts';
import type { Store } from './store.ts';

/**
 * The facts `deadman metrics` shows, per run name, from the database: the latest run, its
 * incidents that are not resolved, and totals over the runs the retention kept.
 */
export function loadRunFacts(store: Store, nowMs: number, onlyName?: string): RunFacts[] {
  // One name: the running deadman's own textfile, refreshed every few seconds.
  const latest = store.all<{ id: number; name: string; ended_at: number | null; exit_code: number | null }>(
    `SELECT r.id, r.name, r.ended_at, r.exit_code FROM runs r
      WHERE r.id = (SELECT id FROM runs WHERE name = r.name ORDER BY started_at DESC, id DESC LIMIT 1)${onlyName === undefined ? '' : ' AND r.name = ?'} ORDER BY r.name`,
    ...(onlyName === undefined ? [] : [onlyName]),
  );
  return latest.map((run) => {
    const open = store.all<{ kind: string; state: string; count: number }>(
      `SELECT kind, state, COUNT(*) AS count FROM incidents WHERE run_id = ? AND state != 'RESOLVED' GROUP BY kind, state ORDER BY kind, state`, run.id);
    const lastOutput = store.get<{ at: number | null }>('SELECT MAX(at) AS at FROM events WHERE run_id = ?', run.id)?.at ?? null;
    const count = (sql: string) => store.get<{ n: number }>(sql, run.name)?.n ?? 0;
    const running = run.ended_at === null;
    return {
      name: run.name,
      running,
      healthy: running && open.length === 0,
      lastOutputAgeSeconds: lastOutput === null ? null : Math.max(0, (nowMs - lastOutput) / 1000),
      lastExitCode: running ? null : run.exit_code,
      openIncidents: open,
      revives: count('SELECT COUNT(*) AS n FROM revives WHERE name = ?'),
      kills: count(`SELECT COUNT(*) AS n FROM actions a JOIN incidents i ON i.id = a.incident_id JOIN runs r ON r.id = i.run_id
        WHERE r.name = ? AND a.kind = 'TERMINATE_DESCENDANT_PROCESS' AND a.result IN ('killed', 'partial')`),
      stalls: count(`SELECT COUNT(*) AS n FROM runs WHERE name = ? AND outcome = 'stalled'`),
    };
  });
}
