import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionFinding } from '../../../lib/core/revive/session-files.ts';
import { inRepository, watchSession, GROWING_MS } from '../../../lib/core/session/watched-session.ts';

const NOW = 1_800_000_000_000;
const MIN = 60_000;

function finding(overrides: Partial<SessionFinding> = {}): SessionFinding {
  return {
    agent: 'codex',
    sessionId: 's1',
    cwd: '/srv/app',
    root: true,
    interruption: null,
    stoppedByPerson: null,
    revivesSinceUserInput: 0,
    lastTimestamp: null,
    task: null,
    resumeFlags: [],
    ...overrides,
  };
}

const view = (f: SessionFinding, writtenAgo: number, holders: number[] = []) =>
  watchSession(
    {
      finding: f,
      path: '/x.jsonl',
      lines: ['{"type":"session_meta"}', '{"type":"event_msg","payload":{"type":"task_started"}}', 'cut'],
      mtimeMs: NOW - writtenAgo,
      holders,
    },
    NOW,
    30 * MIN,
  );

test('turn state: completed, stopped by a person, running (held open or growing), interrupted (open turn, nobody writing)', () => {
  assert.equal(view(finding(), 10 * MIN).turn, 'completed');
  assert.equal(view(finding({ stoppedByPerson: 'a person aborted the turn' }), 10 * MIN).turn, 'stopped');
  const open = finding({ interruption: 'a turn started and never completed' });
  assert.equal(view(open, 10 * MIN, [42]).turn, 'running');
  assert.equal(view(open, GROWING_MS - 1).turn, 'running');
  const interrupted = view(open, GROWING_MS + 1);
  assert.equal(interrupted.turn, 'interrupted');
  assert.deepEqual(interrupted.signals, ['revivable: deadman revive would resume it']);
  assert.equal(
    view(finding({ interruption: 'x', root: false }), 10 * MIN).signals.length,
    0,
    'a sub-agent is never revived',
  );
});

test('counts and latest event by kind (Codex event_msg by its payload type); a cut line is not counted', () => {
  const v = view(finding(), MIN);
  assert.deepEqual(v.counts, { session_meta: 1, task_started: 1 });
  assert.equal(v.events, 2);
  assert.equal(v.latest, 'task_started');
});

test('only a running turn can stall: OUTPUT_INACTIVITY once its file was quiet for inactivity', () => {
  const open = finding({ interruption: 'x' });
  assert.deepEqual(view(open, 29 * MIN, [42]).signals, []);
  assert.match(view(open, 31 * MIN, [42]).signals[0]!, /^OUTPUT_INACTIVITY: no session write for 31min$/);
});

test('repository match is by path components, not by prefix', () => {
  assert.ok(inRepository('/srv/app', '/srv/app'));
  assert.ok(inRepository('/srv/app/sub', '/srv/app'));
  assert.ok(!inRepository('/srv/app2', '/srv/app'));
  assert.ok(!inRepository(null, '/srv/app'));
  assert.ok(inRepository('/anything', '/'));
});
