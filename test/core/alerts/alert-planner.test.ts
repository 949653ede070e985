import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlertPlanner, type IncidentTransition, type PlannerSettings } from '../../../lib/core/alerts/alert-planner.ts';

const MIN = 60_000;
const settings: PlannerSettings = { events: ['fail', 'incident'], minIntervalMs: 5 * MIN, reminderMs: 60 * MIN };
const all: PlannerSettings = { ...settings, events: ['start', 'success', 'fail', 'incident'] };
const run = {
  name: 'review',
  host: 'box',
  answers: (id: number) => [`deadman approve ${id} --state-dir /s`, `deadman deny ${id} --state-dir /s`],
};

function moved(id: number, state: string, event = 'escalate', from = 'OPEN'): IncidentTransition {
  return { incident: { id, kind: 'HUNG_PROCESS', state, message: 'sleep 600 idle' }, from, event, reason: 'why' };
}

const end = {
  exitCode: 75,
  stoppedBy: null,
  outcome: 'stalled',
  code: 'output_inactivity',
  reason: 'no output for 1s',
  outputTail: ['a', 'b'],
};

test('lifecycle: start, then fail with the exit code and the tail, or success; nothing after a deliberate stop', () => {
  const planner = new AlertPlanner(run, {});
  assert.deepEqual(planner.started(0, settings), [], 'start is not among the default events');
  assert.deepEqual(
    planner.started(0, all).map((a) => [a.event, a.at, a.source]),
    [['start', '1970-01-01T00:00:00.000Z', 'run']],
  );
  const [fail] = planner.ended(end, 1_000, all);
  assert.deepEqual(
    [fail?.event, fail?.exit_code, fail?.outcome, fail?.code, fail?.reason, fail?.output_tail],
    ['fail', 75, 'stalled', 'output_inactivity', 'no output for 1s', ['a', 'b']],
  );
  assert.deepEqual(
    planner.ended({ ...end, exitCode: 0 }, 2_000, all).map((a) => a.event),
    ['success'],
  );
  assert.deepEqual(planner.ended({ ...end, stoppedBy: 'SIGTERM' }, 3_000, all), []);
  assert.deepEqual(
    planner.ended({ ...end, exitCode: 0 }, 4_000, settings),
    [],
    'success is not among the default events',
  );
});

test('an incident that needs a person goes out once, with its answers while it awaits approval', () => {
  const planner = new AlertPlanner(run, {});
  assert.deepEqual(planner.moved(moved(1, 'RECOVERING', 'recovery_allowed'), 0, settings), []);
  const [approval] = planner.moved(moved(2, 'AWAITING_APPROVAL', 'approval_required'), 0, settings);
  assert.deepEqual(
    [approval?.event, approval?.incident?.id, approval?.incident?.state, approval?.reason],
    ['incident', 2, 'AWAITING_APPROVAL', 'why'],
  );
  assert.deepEqual(approval?.commands, ['deadman approve 2 --state-dir /s', 'deadman deny 2 --state-dir /s']);
  const [escalated] = planner.moved(moved(3, 'ESCALATED'), 10, settings);
  assert.deepEqual([escalated?.incident?.state, escalated?.commands], ['ESCALATED', []]);
  assert.deepEqual(planner.moved(moved(3, 'ESCALATED'), 20, settings), [], 'once per incident');
  assert.deepEqual(
    planner.moved(moved(2, 'ESCALATED', 'denied', 'AWAITING_APPROVAL'), 30, settings),
    [],
    "a person's own deny is not news to them",
  );
  assert.deepEqual(planner.moved(moved(4, 'ESCALATED'), 0, { ...settings, events: ['fail'] }), []);
  const unrecorded = (kind: string): IncidentTransition => ({
    ...moved(-1, 'AWAITING_APPROVAL', 'approval_required'),
    incident: { id: -1, kind, state: 'AWAITING_APPROVAL', message: 'x' },
  });
  const [first] = planner.moved(unrecorded('HUNG_PROCESS'), 40, settings);
  assert.deepEqual(first?.commands, [], 'not in the store: there is nothing to approve');
  assert.equal(
    planner.moved(unrecorded('NO_PROGRESS'), 41, settings).length,
    1,
    'another unrecorded incident is not taken for the first',
  );
});

test('reminders every reminderMs while an incident still waits; none once it moved on or the run ended', () => {
  const planner = new AlertPlanner(run, {});
  planner.moved(moved(1, 'AWAITING_APPROVAL', 'approval_required'), 0, settings);
  planner.moved(moved(2, 'ESCALATED'), 30 * MIN, settings);
  assert.equal(planner.nextReminderAt(settings), 60 * MIN);
  assert.deepEqual(planner.remind(60 * MIN - 1, settings), []);
  const [first] = planner.remind(60 * MIN, settings);
  assert.deepEqual(
    [first?.incident?.id, first?.reminder, first?.at, first?.commands.length],
    [1, 1, new Date(60 * MIN).toISOString(), 2],
  );
  assert.equal(planner.nextReminderAt(settings), 90 * MIN);
  assert.deepEqual(
    planner.remind(90 * MIN, settings).map((a) => [a.incident?.id, a.reminder]),
    [[2, 1]],
  );
  assert.deepEqual(
    planner.remind(120 * MIN, settings).map((a) => [a.incident?.id, a.reminder]),
    [[1, 2]],
  );
  planner.moved(moved(1, 'RECOVERING', 'approved', 'AWAITING_APPROVAL'), 121 * MIN, settings);
  assert.deepEqual(
    planner.remind(150 * MIN, settings).map((a) => a.incident?.id),
    [2],
    'the approved incident no longer waits',
  );
  assert.deepEqual(planner.remind(500 * MIN, { ...settings, reminderMs: 0 }), [], 'reminder = "off"');
  assert.equal(planner.nextReminderAt({ ...settings, reminderMs: 0 }), null);
  planner.ended(end, 501 * MIN, settings);
  assert.equal(planner.nextReminderAt(settings), null);
  assert.deepEqual(planner.remind(600 * MIN, settings), []);
});

test('rate limit across runs: what an earlier run sent within min_interval is not sent again', () => {
  const earlier = { 'fail/75': { at: 0, invocation: null }, 'incident/3/ESCALATED': { at: 0, invocation: null } };
  const planner = new AlertPlanner(run, earlier);
  assert.deepEqual(planner.ended(end, MIN, settings), [], 'the same stall exit a minute later');
  assert.deepEqual(planner.moved(moved(3, 'ESCALATED'), MIN, settings), [], 'the same recurring incident');
  assert.equal(
    planner.moved(moved(3, 'ESCALATED'), 5 * MIN, settings).length,
    1,
    'after min_interval it goes out again',
  );
  assert.equal(planner.ended({ ...end, exitCode: 1 }, MIN, settings).length, 1, 'another exit code is news');
  const fresh = new AlertPlanner(run, {});
  assert.equal(fresh.ended(end, 0, settings).length, 1);
  assert.equal(fresh.ended(end, 1, settings).length, 0, 'a restart loop within one process too');
});
