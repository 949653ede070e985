import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTerminal, MAX_RECOVERY_ATTEMPTS, transition, type IncidentEvent, type IncidentState } from '../../../lib/core/incident/incident.ts';

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
    ['OPEN', 'verified', 0, null],
  ];
  for (const [from, event, attempts, expected] of cases) {
    assert.equal(transition(from, event, attempts), expected, `${from} --${event}(${attempts})-->`);
  }
});

test('only RESOLVED and ESCALATED are terminal', () => {
  assert.deepEqual(
    (['OPEN', 'AWAITING_APPROVAL', 'RECOVERING', 'VERIFYING', 'RESOLVED', 'ESCALATED'] as const).filter(isTerminal),
    ['RESOLVED', 'ESCALATED'],
  );
});
