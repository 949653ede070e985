import { formatArgv } from '../process/format-argv.ts';
import type { PlannedRevive, ReviveSource } from './revive-plan.ts';

/** What `deadman revive` prints: one row per session it considered, as text or JSON. */

export interface ReviveRow {
  action: PlannedRevive['action'];
  name: string;
  source: ReviveSource;
  sessionId: string | null;
  attempt?: number;
  budget?: number;
  argv?: string[];
  reason?: string;
  /** After a real run: `supervised in [user ]unit <unit>`, `supervised pid <pid>, detached, output in <log>`, `failed: <why>`. */
  outcome?: string;
  log?: string;
}

export function reviveRow(step: PlannedRevive, outcome?: { outcome: string; log?: string }): ReviveRow {
  const base = { action: step.action, name: step.marker.name, source: step.source, sessionId: step.marker.sessionId };
  if (step.action !== 'revive') return { ...base, reason: step.reason };
  return { ...base, attempt: step.attempt, budget: step.budget, argv: step.argv, ...outcome };
}

/** An argv as a person reads it in the revive list: plain words bare, the rest quoted, long ones cut. */
export function showArgv(argv: readonly string[]): string {
  return formatArgv(argv, { quoting: 'json', maxArgLength: 60 });
}

export function renderReviveRows(rows: readonly ReviveRow[], dryRun: boolean): string {
  if (rows.length === 0) return 'no interrupted sessions\n';
  return (
    rows
      .map((row) => {
        const session = row.sessionId ? `session ${row.sessionId}` : 'no session';
        const from =
          row.source === 'marker'
            ? ''
            : ` (found in ${row.source === 'codex-session' ? 'Codex' : 'Claude'} session files)`;
        if (row.action === 'revive') {
          const verb = dryRun ? 'would revive' : `revived (${row.outcome ?? 'started'})`;
          return `${row.name}: ${verb} ${session} (${row.attempt}/${row.budget})${from}: ${showArgv(row.argv ?? [])}`;
        }
        const verb =
          row.action === 'exhausted'
            ? dryRun
              ? 'would stop, revive budget spent'
              : 'stopped, revive budget spent'
            : 'skipped';
        return `${row.name}: ${verb}, ${session}${from}: ${row.reason}`;
      })
      .join('\n') + '\n'
  );
}
