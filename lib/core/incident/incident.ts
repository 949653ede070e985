/**
 * The incident state machine as a table of states × events. Every change goes through
 * `transition`, and the caller stores each one with its time, reason and evidence.
 *
 *   OPEN ──recovery_allowed──▶ RECOVERING ──action_taken──▶ VERIFYING ──verified──▶ RESOLVED
 *     │ └─approval_required─▶ AWAITING_APPROVAL ──condition_cleared──▶ RESOLVED
 *     │                        ├─approved (deadman approve)─▶ RECOVERING
 *     │                        └─denied (deadman deny)─▶ ESCALATED (left to the person, never acted on)
 *     └─escalate──▶ ESCALATED ◀──not_verified (attempts used up) / action_refused / escalate
 *
 *   OPEN, AWAITING_APPROVAL, RECOVERING, VERIFYING ──run_ended──▶ ABANDONED: the run that owned it
 *   ended (exit, --timeout, a deadman found dead) before it was settled; nobody acts on it any more.
 *
 *   ESCALATED waits on a person until one of two moves settles it, both made after its run ended:
 *     ├─superseded (a later run of the name completed)─▶ SUPERSEDED
 *     └─acknowledged (deadman ack ID, with who and when)─▶ ACKNOWLEDGED
 */

export type IncidentState =
  | 'OPEN'
  | 'AWAITING_APPROVAL'
  | 'RECOVERING'
  | 'VERIFYING'
  | 'RESOLVED'
  | 'ESCALATED'
  | 'ABANDONED'
  | 'SUPERSEDED'
  | 'ACKNOWLEDGED';
export type IncidentEvent =
  | 'recovery_allowed'
  | 'approval_required'
  | 'action_taken'
  | 'action_refused'
  | 'verified'
  | 'not_verified'
  | 'condition_cleared'
  | 'escalate'
  | 'approved'
  | 'denied'
  | 'run_ended'
  | 'superseded'
  | 'acknowledged';

/** At most this many recovery actions per incident before it escalates. */
export const MAX_RECOVERY_ATTEMPTS = 2;

type Next = IncidentState | ((attempts: number) => IncidentState);

const retryOrEscalate = (attempts: number): IncidentState =>
  attempts < MAX_RECOVERY_ATTEMPTS ? 'RECOVERING' : 'ESCALATED';

export const INCIDENT_TABLE: Record<IncidentState, Partial<Record<IncidentEvent, Next>>> = {
  OPEN: {
    recovery_allowed: 'RECOVERING',
    approval_required: 'AWAITING_APPROVAL',
    condition_cleared: 'RESOLVED',
    escalate: 'ESCALATED',
    run_ended: 'ABANDONED',
  },
  AWAITING_APPROVAL: {
    condition_cleared: 'RESOLVED',
    escalate: 'ESCALATED',
    approved: 'RECOVERING',
    denied: 'ESCALATED',
    run_ended: 'ABANDONED',
  },
  RECOVERING: {
    action_taken: 'VERIFYING',
    action_refused: 'ESCALATED',
    condition_cleared: 'RESOLVED',
    escalate: 'ESCALATED',
    run_ended: 'ABANDONED',
  },
  VERIFYING: { verified: 'RESOLVED', not_verified: retryOrEscalate, escalate: 'ESCALATED', run_ended: 'ABANDONED' },
  RESOLVED: {},
  ESCALATED: { superseded: 'SUPERSEDED', acknowledged: 'ACKNOWLEDGED' },
  ABANDONED: {},
  SUPERSEDED: {},
  ACKNOWLEDGED: {},
};

/** States that are over: nothing waits on them, no reader counts them open (ESCALATED waits on a person). */
export const SETTLED_STATES: readonly IncidentState[] = ['RESOLVED', 'ABANDONED', 'SUPERSEDED', 'ACKNOWLEDGED'];

export function isSettled(state: string): boolean {
  return (SETTLED_STATES as readonly string[]).includes(state);
}

/** The states a run's end leaves ABANDONED: every one that has a `run_ended` move. */
export const ABANDONED_ON_RUN_END: readonly IncidentState[] = (Object.keys(INCIDENT_TABLE) as IncidentState[]).filter(
  (state) => INCIDENT_TABLE[state].run_ended !== undefined,
);

/** The next state, or null when the event does not apply in this state (a caller bug, or a race to ignore). */
export function transition(state: IncidentState, event: IncidentEvent, attempts: number): IncidentState | null {
  const next = INCIDENT_TABLE[state][event];
  if (next === undefined) return null;
  return typeof next === 'function' ? next(attempts) : next;
}
