import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  markCompleted,
  markInterrupted,
  newMarker,
  withSessionId,
  type Marker,
} from '../../../lib/core/revive/marker.ts';
import { planRevives } from '../../../lib/core/revive/revive-plan.ts';
import { renderReviveRows, reviveRow, showArgv } from '../../../lib/core/revive/revive-text.ts';

const NOW = Date.UTC(2026, 11, 1, 9);

function interrupted(name: string, sessionId: string, adapter: 'codex' | 'claude' = 'codex'): Marker {
  const argv =
    adapter === 'codex'
      ? ['codex', 'exec', '--json', 'task']
      : ['claude', '-p', 'task', '--output-format', 'stream-json', '--verbose'];
  return markInterrupted(
    withSessionId(
      newMarker({ name, adapter, argv, cwd: '/w', owner: null, now: NOW - 60_000 }),
      sessionId,
      NOW - 60_000,
    ),
    'killed',
    NOW - 60_000,
  );
}

const settings = { now: NOW, maxAgeMs: 3_600_000, maxRevives: 5 };

test('a session that has a marker is decided by the marker alone, never twice', () => {
  const plan = planRevives(
    [
      { marker: markCompleted(interrupted('agent', 'aaa'), NOW), livePid: null },
      { marker: interrupted('b', 'bbb'), livePid: 4242 },
    ],
    [interrupted('codex-aaa', 'aaa'), interrupted('codex-bbb', 'bbb'), interrupted('claude-ccc', 'ccc', 'claude')],
    settings,
  );
  assert.deepEqual(
    plan.map((step) => [step.action, step.source, step.marker.name]),
    [
      ['skip', 'marker', 'agent'],
      ['skip', 'marker', 'b'],
      ['revive', 'claude-session', 'claude-ccc'],
    ],
  );
});

test('rows and text: what would be done, and why not', () => {
  const plan = planRevives(
    [
      { marker: { ...interrupted('spent', 'sss'), reviveCount: 5 }, livePid: null },
      { marker: interrupted('go', 'ggg'), livePid: null },
    ],
    [],
    { ...settings, message: 'continue: {task}' },
  );
  const rows = plan.map((step) => reviveRow(step));
  assert.deepEqual(rows[1], {
    action: 'revive',
    name: 'go',
    source: 'marker',
    sessionId: 'ggg',
    attempt: 1,
    budget: 5,
    argv: ['codex', 'exec', '--json', 'resume', 'ggg', 'continue: task'],
  });
  assert.equal(
    renderReviveRows(rows, true),
    [
      'spent: would stop, revive budget spent, session sss: revive budget spent: 5 of 5 revives without a clean completion',
      'go: would revive session ggg (1/5): codex exec --json resume ggg "continue: task"',
    ].join('\n') + '\n',
  );
  assert.equal(renderReviveRows([], false), 'no interrupted sessions\n');
  assert.equal(showArgv(['a b', 'x'.repeat(100), 'plain-1.0']), `"a b" "${'x'.repeat(60)}…" plain-1.0`);
});
