import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query } from '../../helpers/db.ts';
import { wholeJsonLines } from '../../helpers/json-lines.ts';

/** What deadman recorded and sent in a scenario, read the way the assertions want it. */

/** A deadman.toml in the scenario's directory whose alerts go to `dir/alerts.jsonl` (one JSON alert a line), plus `extra`. */
export function configWithAlerts(dir: string, extra = ''): string {
  const file = join(dir, 'deadman.toml');
  const alerts = join(dir, 'alerts.jsonl');
  writeFileSync(
    file,
    `${extra}\n[notify]\ncommand = ["sh", "-c", "tr -d '\\\\n' >> ${alerts}; echo >> ${alerts}"]\nevents = ["fail", "incident"]\n`,
  );
  return file;
}

export function alertsSent(dir: string): Array<Record<string, unknown>> {
  const file = join(dir, 'alerts.jsonl');
  return wholeJsonLines<Record<string, unknown>>(file);
}

export function incidents(database: string): Array<{ kind: string; state: string }> {
  return query<{ kind: string; state: string }>(database, 'SELECT kind, state FROM incidents ORDER BY id').map((r) => ({
    kind: r.kind,
    state: r.state,
  }));
}

export function runs(
  database: string,
): Array<{ outcome: string | null; exit_code: number | null; revive_of: string | null; session_id: string | null }> {
  return query<{
    outcome: string | null;
    exit_code: number | null;
    revive_of: string | null;
    session_id: string | null;
  }>(database, 'SELECT outcome, exit_code, revive_of, session_id FROM runs ORDER BY id').map((r) => ({
    outcome: r.outcome,
    exit_code: r.exit_code,
    revive_of: r.revive_of,
    session_id: r.session_id,
  }));
}

export function actionKinds(database: string): string[] {
  return query<{ kind: string }>(database, 'SELECT kind FROM actions ORDER BY id').map((r) => r.kind);
}

/** The run's wall time and what deadman said on stderr (its own lines, without the banner and the summary block), as test diagnostics. */
export function narrate(t: { diagnostic(message: string): void }, finished: { ms: number; stderr: string }): void {
  t.diagnostic(`wall ${(finished.ms / 1000).toFixed(1)} s`);
  for (const line of finished.stderr.split('\n'))
    if (/^deadman: (?!run \S+ ·|summary of run| )/.test(line)) t.diagnostic(line);
}
