import { closeSync, openSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from '../../lib/io/store/store-schema.ts';

/**
 * A database as a long-lived host leaves it: `runs` finished runs of one name, each with a few
 * events, observations, a signal and an incident that went through transitions, a diagnosis, a
 * decision, an action and a verification. Built with set-based SQL (seconds for 10,000 runs)
 * rather than through the recording path, which would take as long as the runs themselves.
 * Every run ended `endedAt` (wall ms), so only max_runs, not max_age, makes them prunable.
 * The schema is the one of 0532ffa (user_version 6, before the child tables' indexes), so the
 * same file measures the old code and shows the new one migrating it.
 */
export function fillFinishedRuns(path: string, runs: number, { name = 'crowd', endedAt = Date.now() } = {}): void {
  closeSync(openSync(path, 'a', 0o600)); // private from its first byte, as deadman makes it
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    const { user_version: version } = db.prepare('PRAGMA user_version').get() as { user_version: number };
    for (const migration of MIGRATIONS.slice(version, 6)) db.exec(migration);
    if (version < 6) db.exec('PRAGMA user_version = 6');
    db.exec('BEGIN');
    {
      const base = (db.prepare('SELECT coalesce(max(id), 0) AS n FROM runs').get() as { n: number }).n;
      db.prepare(
        `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
        INSERT INTO runs (id, name, argv, cwd, pid, adapter, started_at, ended_at, exit_code, outcome, reason)
        SELECT ? + i, ?, '["true"]', '/', 1, 'generic', ? - 1000, ?, 0, 'exited', 'ended 0' FROM k`,
      ).run(runs, base, name, endedAt, endedAt);
      const added = `runs.id > ${base}`;
      const fanOut = (count: number) =>
        `(WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${count}) SELECT i FROM k) AS k`;
      db.exec(
        `INSERT INTO events (run_id, at, stream, kind, raw) SELECT runs.id, runs.started_at + k.i, 'stdout', 'output', 'line ' || k.i FROM runs, ${fanOut(20)} WHERE ${added}`,
      );
      db.exec(
        `INSERT INTO observations (run_id, at, processes) SELECT runs.id, runs.started_at + k.i, '[]' FROM runs, ${fanOut(5)} WHERE ${added}`,
      );
      db.exec(
        `INSERT INTO signals (run_id, at, kind, message) SELECT runs.id, runs.started_at, 'inactivity', 'quiet' FROM runs WHERE ${added}`,
      );
      db.exec(`INSERT INTO incidents (run_id, kind, state, message, opened_at, updated_at, signal_id)
        SELECT signals.run_id, 'inactivity', 'RESOLVED', 'quiet', signals.at, signals.at + 10, signals.id FROM signals JOIN runs ON runs.id = signals.run_id WHERE ${added}`);
      const incidents = `FROM incidents JOIN runs ON runs.id = incidents.run_id WHERE ${added}`;
      db.exec(
        `INSERT INTO incident_transitions (incident_id, at, from_state, to_state, reason) SELECT incidents.id, opened_at, 'OPEN', 'RESOLVED', 'output again' ${incidents}`,
      );
      db.exec(
        `INSERT INTO diagnoses (incident_id, at, source, action, rationale) SELECT incidents.id, opened_at, 'rules', 'restart', 'quiet' ${incidents}`,
      );
      db.exec(
        `INSERT INTO decisions (incident_id, at, action, verdict, reason) SELECT incidents.id, opened_at, 'restart', 'allowed', 'policy' ${incidents}`,
      );
      db.exec(
        `INSERT INTO actions (incident_id, at, kind, result) SELECT incidents.id, opened_at, 'restart', 'done' ${incidents}`,
      );
      db.exec(
        `INSERT INTO verifications (incident_id, at, verdict, detail) SELECT incidents.id, opened_at, 'RESOLVED', 'output' ${incidents}`,
      );
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
}
