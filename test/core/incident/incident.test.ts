import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ABANDONED_ON_RUN_END,
  isSettled,
  MAX_RECOVERY_ATTEMPTS,
  transition,
  type IncidentEvent,
  type IncidentState,
} from '../../../lib/core/incident/incident.ts';

test('every documented path through the incident state machine', () => {
  const cases: Array<[IncidentState, IncidentEvent, number, IncidentState | null]> = [
    ['OPEN', 'recovery_allowed', 0, 'RECOVERING'],
    ['OPEN', 'approval_required', 0, 'AWAITING_APPROVAL'],
    ['OPEN', 'escalate', 0, 'ESCALATED'],
    ['AWAITING_APPROVAL', 'condition_cleared', 0, 'RESOLVED'],
    ['AWAITING_APPROVAL', 'action_taken', 0, null],
    ['RECOVERING', 'action_taken', 1, 'VERIFYING'],
    ['RECOVERING', 'action_refused', 1, 'ESCALATED'],
    ['VERIFYING', 'verified', 1, 'RESOLVED'],
    ['VERIFYING', 'not_verified', 1, 'RECOVERING'],
    ['VERIFYING', 'not_verified', MAX_RECOVERY_ATTEMPTS, 'ESCALATED'],
    ['RESOLVED', 'escalate', 0, null],
    ['ESCALATED', 'verified', 0, null],
    ['ESCALATED', 'superseded', 0, 'SUPERSEDED'],
    ['ESCALATED', 'acknowledged', 0, 'ACKNOWLEDGED'],
    ['AWAITING_APPROVAL', 'acknowledged', 0, null],
    ['ABANDONED', 'superseded', 0, null],
    ['OPEN', 'verified', 0, null],
  ];
  for (const [from, event, attempts, expected] of cases) {
    assert.equal(transition(from, event, attempts), expected, `${from} --${event}(${attempts})-->`);
  }
});

test("RESOLVED, ABANDONED, SUPERSEDED and ACKNOWLEDGED are settled; ESCALATED waits on a person; a run's end abandons every other state", () => {
  const states = [
    'OPEN',
    'AWAITING_APPROVAL',
    'RECOVERING',
    'VERIFYING',
    'RESOLVED',
    'ESCALATED',
    'ABANDONED',
    'SUPERSEDED',
    'ACKNOWLEDGED',
  ] as const;
  assert.deepEqual(states.filter(isSettled), ['RESOLVED', 'ABANDONED', 'SUPERSEDED', 'ACKNOWLEDGED']);
  assert.deepEqual(
    ABANDONED_ON_RUN_END,
    states.filter((state) => !isSettled(state) && state !== 'ESCALATED'),
  );
  for (const state of ABANDONED_ON_RUN_END) assert.equal(transition(state, 'run_ended', 0), 'ABANDONED');
});
