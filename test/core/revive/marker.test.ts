import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decideRevive,
  markCompleted,
  markExhausted,
  markInterrupted,
  markRevived,
  markRunEnded,
  newMarker,
  sessionMismatch,
  withSessionId,
  type Marker,
  type ReviveSettings,
} from '../../../lib/core/revive/marker.ts';
import { parseMarkerValue } from '../../../lib/core/revive/marker-schema.ts';
import { commandIdentity } from '../../../lib/core/revive/command-identity.ts';

const T0 = Date.UTC(2026, 11, 1, 8, 0, 0);
const MIN = 60_000;
const owner = { pid: 4242, startTime: 99 };
const codexArgv = ['/usr/bin/codex', 'exec', '--json', '-s', 'workspace-write', '-C', '/repo', 'fix the tests'];

function interrupted(changes: Partial<Marker> = {}): Marker {
  const started = withSessionId(
    newMarker({ name: 'agent', adapter: 'codex', argv: codexArgv, cwd: '/repo', owner, now: T0 }),
    '01a23013-27f3-73e2-b3cb-86b68ffb84d0',
    T0 + 1000,
  );
  return { ...markInterrupted(started, 'exit 143', T0 + 2000), ...changes };
}

const settings = (changes: Partial<ReviveSettings> = {}): ReviveSettings => ({
  now: T0 + 10 * MIN,
  livePid: null,
  maxAgeMs: 60 * MIN,
  maxRevives: 5,
  ...changes,
});

test('a fresh marker records the command line, what a resume repeats, and its owner', () => {
  const marker = newMarker({ name: 'agent', adapter: 'codex', argv: codexArgv, cwd: '/repo', owner, now: T0 });
  assert.deepEqual(marker, {
    version: 2,
    name: 'agent',
    adapter: 'codex',
    sessionId: null,
    argv: codexArgv,
    cwd: '/repo',
    runTag: null,
    task: 'fix the tests',
    startedAt: T0,
    updatedAt: T0,
    state: 'running',
    reason: null,
    reviveCount: 0,
    owner,
    detachedLog: null,
  });
  const text = JSON.stringify(marker);
  assert.deepEqual(parseMarkerValue(JSON.parse(text)), { ok: true, marker });
});

test('decideRevive: each way a marker is or is not revived', () => {
  const cases: Array<[string, Marker | null, Partial<ReviveSettings>, string]> = [
    ['no marker', null, {}, 'fresh'],
    ['interrupted, fresh, with a session', interrupted(), {}, 'revive'],
    ['running with a dead owner', interrupted({ state: 'running' }), {}, 'revive'],
    ['running with a live process', interrupted({ state: 'running' }), { livePid: 77 }, 'owned'],
    ['interrupted with a live process of the session', interrupted(), { livePid: 77 }, 'owned'],
    [
      'completed: a leftover process does not block a fresh start',
      markCompleted(interrupted(), T0),
      { livePid: 77 },
      'fresh',
    ],
    ['the same command', interrupted(), { current: commandIdentity('codex', codexArgv, '/repo') }, 'revive'],
    [
      'another prompt',
      interrupted(),
      { current: commandIdentity('codex', [...codexArgv.slice(0, -1), 'task B'], '/repo') },
      'fresh',
    ],
    ['another cwd', interrupted(), { current: commandIdentity('codex', codexArgv, '/elsewhere') }, 'fresh'],
    [
      'another option',
      interrupted(),
      {
        current: commandIdentity(
          'codex',
          ['/usr/bin/codex', 'exec', '--json', '-s', 'danger-full-access', '-C', '/repo', 'fix the tests'],
          '/repo',
        ),
      },
      'fresh',
    ],
    ['completed', markCompleted(interrupted(), T0), {}, 'fresh'],
    ['exhausted earlier: a manual restart starts over', markExhausted(interrupted(), 'spent', T0), {}, 'fresh'],
    ['no session id', interrupted({ sessionId: null }), {}, 'fresh'],
    ['session id that could be a flag', interrupted({ sessionId: '--yolo' }), {}, 'fresh'],
    ['session id with a space', interrupted({ sessionId: 'a b' }), {}, 'fresh'],
    ['older than max_age', interrupted(), { now: T0 + 2000 + 61 * MIN }, 'fresh'],
    ['exactly max_age', interrupted(), { now: T0 + 2000 + 60 * MIN }, 'revive'],
    ['max_age off', interrupted(), { now: T0 + 30 * 86_400_000, maxAgeMs: 0 }, 'revive'],
    ['budget: 4 of 5 used', interrupted({ reviveCount: 4 }), {}, 'revive'],
    ['budget: 5 of 5 used', interrupted({ reviveCount: 5 }), {}, 'exhausted'],
    ['reviving off', interrupted(), { maxRevives: 0 }, 'fresh'],
    ['generic without revive.command', interrupted({ adapter: 'generic' }), {}, 'fresh'],
    [
      'generic with revive.command',
      interrupted({ adapter: 'generic' }),
      { template: ['agent', '--resume', '{session_id}'] },
      'revive',
    ],
    ['codex without exec', interrupted({ argv: ['codex', 'resume'] }), {}, 'fresh'],
  ];
  for (const [what, marker, changes, expected] of cases) {
    const decision = decideRevive(marker, settings(changes));
    assert.equal(decision.revive ? 'revive' : decision.outcome, expected, `${what}: ${JSON.stringify(decision)}`);
  }
  assert.deepEqual(decideRevive(interrupted({ reviveCount: 1 }), settings()), {
    revive: true,
    sessionId: '01a23013-27f3-73e2-b3cb-86b68ffb84d0',
    attempt: 2,
    budget: 5,
  });
  const old = decideRevive(interrupted(), settings({ now: T0 + 3 * 60 * MIN }));
  assert.ok(
    !old.revive && old.reason === 'interrupted 2 hours ago, longer than revive.max_age (1h)',
    JSON.stringify(old),
  );
});

test('six interruptions in a row: five revives, then exhausted; a completion resets the count', () => {
  let marker = interrupted();
  const outcomes: string[] = [];
  for (let crash = 1; crash <= 6; crash++) {
    const decision = decideRevive(marker, settings());
    outcomes.push(decision.revive ? `revive ${decision.attempt}/${decision.budget}` : decision.outcome);
    if (!decision.revive) break;
    marker = markInterrupted(
      markRevived(marker, { owner: { pid: 5000 + crash, startTime: crash }, runTag: null }, T0 + 3000),
      'killed',
      T0 + 4000,
    );
  }
  assert.deepEqual(outcomes, ['revive 1/5', 'revive 2/5', 'revive 3/5', 'revive 4/5', 'revive 5/5', 'exhausted']);
  assert.equal(marker.reviveCount, 5);

  const completed = markCompleted(markRevived(interrupted({ reviveCount: 3 }), { owner, runTag: null }, T0), T0);
  assert.equal(completed.reviveCount, 0);
  const next = markInterrupted(completed, 'killed', T0 + 3000);
  assert.deepEqual(decideRevive(next, settings()), { revive: true, sessionId: next.sessionId!, attempt: 1, budget: 5 });
});

test('a resumed run that reports another session is flagged', () => {
  const revived = markRevived(interrupted(), { owner, runTag: null }, T0);
  assert.equal(sessionMismatch(revived, revived.sessionId!), null);
  assert.match(sessionMismatch(revived, 'ffff')!, /asked to resume session 01a23013.* but the agent reports ffff/);
  assert.equal(
    sessionMismatch(newMarker({ name: 'x', adapter: 'codex', argv: codexArgv, cwd: '/', owner, now: T0 }), 'ffff'),
    null,
    'a fresh run has nothing to compare',
  );
});

// A file cut short, empty or not JSON is readMarker's to say (test/commands/revive.test.ts).
test('parseMarkerValue: wrong version and bad fields are one-line problems', () => {
  const cases: Array<[string, RegExp]> = [
    ['null', /version undefined/],
    ['[1,2]', /version undefined/],
    [JSON.stringify({ ...interrupted(), version: 1 }), /has version 1, this deadman reads version 2/],
    [JSON.stringify({ ...interrupted(), reviveCount: -1 }), /bad "reviveCount"/],
    [JSON.stringify({ ...interrupted(), argv: [] }), /bad "argv"/],
    [JSON.stringify({ ...interrupted(), state: 'sleeping' }), /bad "state"/],
    [JSON.stringify({ ...interrupted(), name: '../etc' }), /bad "name"/],
  ];
  for (const [text, problem] of cases) {
    const parsed = parseMarkerValue(JSON.parse(text));
    assert.ok(!parsed.ok, text.slice(0, 40));
    assert.match(parsed.problem, problem);
    assert.ok(!parsed.problem.includes('\n'));
  }
});

test("how a run's end leaves its marker: clean, a person's Ctrl-C, a unit's stop, a failure", () => {
  const running = markRevived(interrupted(), { owner, runTag: null }, T0 + 3000);
  const end = { clean: false, outcome: 'stopped', reason: 'stopped by SIGINT', stopSignal: 'SIGINT', underUnit: false };
  assert.deepEqual(
    [
      markRunEnded(running, { ...end, clean: true }, T0).state,
      markRunEnded(running, { ...end, clean: true }, T0).reviveCount,
    ],
    ['completed', 0],
  );
  const person = markRunEnded(running, end, T0 + 4000);
  assert.deepEqual(
    [person.state, person.reason, person.reviveCount],
    ['completed', 'a person stopped the run (SIGINT at a terminal)', 1],
  );
  assert.equal(decideRevive(person, settings()).revive, false);
  assert.equal(
    markRunEnded(running, { ...end, underUnit: true }, T0 + 4000).state,
    'interrupted',
    "KillSignal=SIGINT: a unit's stop",
  );
  assert.deepEqual(
    markRunEnded(running, { ...end, stopSignal: 'SIGTERM', reason: 'stopped by SIGTERM' }, T0 + 4000).reason,
    'stopped: stopped by SIGTERM',
  );
  assert.equal(
    markRunEnded(running, { ...end, outcome: 'failed', reason: 'child exited 1', stopSignal: null }, T0 + 4000).state,
    'interrupted',
  );
});

test('spent credit settles the marker: completed with the reason, the budget back to 0, and the next start is fresh, saying why', () => {
  const running = markRevived(interrupted(), { owner, runTag: null }, T0 + 3000);
  const end = {
    clean: false,
    settles: true,
    outcome: 'credit-exhausted',
    reason: 'Claude: the credit balance is too low (billing_error)',
    stopSignal: null,
    underUnit: true,
  };
  const settled = markRunEnded(running, end, T0 + 4000);
  assert.deepEqual(
    [settled.state, settled.reviveCount, settled.reason],
    ['completed', 0, 'settled: credit-exhausted: Claude: the credit balance is too low (billing_error)'],
  );
  assert.deepEqual(decideRevive(settled, settings()), {
    revive: false,
    outcome: 'fresh',
    reason:
      'the last run was settled, not resumed (credit-exhausted: Claude: the credit balance is too low (billing_error))',
  });
  assert.equal(
    markRunEnded(running, { ...end, settles: false }, T0 + 4000).state,
    'interrupted',
    'without settles the same end would be revived',
  );
});
