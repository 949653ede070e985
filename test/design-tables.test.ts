import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INCIDENT_TABLE, MAX_RECOVERY_ATTEMPTS } from '../lib/core/incident/incident.ts';
import { RUN_TABLE } from '../lib/supervise/run/run-machine.ts';
import { FOLLOW_UP_TABLE, FOLLOWED_AT_ONCE, JUDGED_BY } from '../lib/supervise/tick/incident-follow-up.ts';
import { OPENING_TABLE } from '../lib/supervise/tick/incident-opening.ts';
import { repoRoot } from './helpers/cli.ts';

/**
 * docs/design.md shows the run's state × event table and the incident table; this renders both
 * from the code and fails when the document says anything else. On a change, paste the
 * rendered table the failure prints into the document.
 */

function markdownTable(
  table: Record<string, Partial<Record<string, unknown>>>,
  cell: (value: unknown) => string,
): string {
  const events = [...new Set(Object.values(table).flatMap((row) => Object.keys(row)))];
  const lines = [
    `| state | ${events.join(' | ')} |`,
    `|---|${events.map(() => '---').join('|')}|`,
    ...Object.entries(table).map(
      ([state, row]) => `| ${state} | ${events.map((e) => (row[e] === undefined ? '' : cell(row[e]))).join(' | ')} |`,
    ),
  ];
  return lines.join('\n');
}

export function runTableMarkdown(): string {
  return markdownTable(RUN_TABLE, (value) => {
    const [to, action] = value as readonly [string, string];
    return `${to}: ${action}`;
  });
}

export function incidentTableMarkdown(): string {
  return markdownTable(INCIDENT_TABLE, (value) =>
    typeof value === 'function' ? `RECOVERING, or ESCALATED after ${MAX_RECOVERY_ATTEMPTS} attempts` : String(value),
  );
}

const design = readFileSync(join(repoRoot, 'docs', 'design.md'), 'utf8');

test('docs/design.md shows the run state × event table as the code has it', () => {
  const table = runTableMarkdown();
  assert.ok(design.includes(table), `docs/design.md should contain:\n${table}`);
});

test('docs/design.md shows the incident state × event table as the code has it', () => {
  const table = incidentTableMarkdown();
  assert.ok(design.includes(table), `docs/design.md should contain:\n${table}`);
});

/** The follow-up table, each standing with what judges it, and the standings followed up at once. */
export function followUpTableMarkdown(): string {
  const withJudge = Object.fromEntries(
    Object.entries(FOLLOW_UP_TABLE).map(([standing, row]) => [
      `${standing} (by ${JUDGED_BY[standing as keyof typeof JUDGED_BY]})`,
      row!,
    ]),
  );
  return `${markdownTable(withJudge, String)}\n\nFollowed up again at once when an action moved the case there: ${FOLLOWED_AT_ONCE.join(', ')}.`;
}

test('docs/design.md shows the incident follow-up table as the code has it', () => {
  const table = followUpTableMarkdown();
  assert.ok(design.includes(table), `docs/design.md should contain:\n${table}`);
});

test('docs/design.md shows the incident opening table as the code has it', () => {
  const table = markdownTable(OPENING_TABLE, String);
  assert.ok(design.includes(table), `docs/design.md should contain:\n${table}`);
});
