import type { IncidentState } from '../../core/incident/incident.ts';
import type { ApprovalAnswer } from '../../core/incident/approval-answer.ts';
import type { Signal } from './detectors.ts';

/**
 * What one tick does with an open incident that has a recovery (a hung finding to act on), as a
 * table in the manner of RUN_TABLE: the case's standing (its incident state, or `denied` once a
 * person said no) × what this tick saw → one small action, which the supervisor carries out. A
 * cell left out means the case waits for the next tick. An action that moves the case into one
 * of FOLLOWED_AT_ONCE hands it to that row in the same tick (a verdict is acted on at once).
 * Pure: the supervisor observes, this only names what follows.
 */

/** `denied`: a person answered no (`deadman deny`); the incident is ESCALATED, the subtree left alone. */
export type FollowUpStanding = 'denied' | IncidentState;

export type FollowUpEvent =
  /** A tick came (the row needs nothing else to decide). */
  | 'tick'
  /** The detector no longer raises this signal (no fresh hung finding). */
  | 'cleared'
  /** The detector still raises it, with a finding to act on. */
  | 'detected'
  /** A person answered (`deadman approve` or `deny`) and the signal still stands. */
  | 'answered';

export type FollowUpAction =
  /** Drop the case: its subtree is gone, or it was resolved. */
  | 'forget'
  /** condition_cleared: the hung subtree is gone or the work moved again. */
  | 'clear'
  /** Record the person's answer: approved → act on the fresh finding; denied → left alone. */
  | 'apply_answer'
  /** Judge the recovery within the verify window (verified, not verified, or still pending). */
  | 'verify'
  /** Act again on the fresh finding (the next attempt). */
  | 'retry'
  /** No fresh finding for a second attempt: escalate. */
  | 'escalate'
  /** The incident is ESCALATED: the run stalls (the stall policy decides what follows). */
  | 'stall';

export const FOLLOW_UP_TABLE: Partial<Record<FollowUpStanding, Partial<Record<FollowUpEvent, FollowUpAction>>>> = {
  denied: { cleared: 'forget' },
  AWAITING_APPROVAL: { cleared: 'clear', answered: 'apply_answer' },
  VERIFYING: { tick: 'verify' },
  RECOVERING: { detected: 'retry', cleared: 'escalate' },
  RESOLVED: { tick: 'forget' },
  ESCALATED: { tick: 'stall' },
};

/** Standings a case is followed up in again, in the same tick, when an action moved it there. */
export const FOLLOWED_AT_ONCE: readonly FollowUpStanding[] = ['RESOLVED', 'RECOVERING', 'ESCALATED'];

/** What each standing is judged by: the signal raised again (its detector run once more), a person's answer with it, or only the tick. */
export const JUDGED_BY: Record<FollowUpStanding, 'signal' | 'answer and signal' | 'tick'> = {
  denied: 'signal',
  AWAITING_APPROVAL: 'answer and signal',
  RECOVERING: 'signal',
  OPEN: 'tick',
  VERIFYING: 'tick',
  RESOLVED: 'tick',
  ESCALATED: 'tick',
  ABANDONED: 'tick',
  SUPERSEDED: 'tick',
  ACKNOWLEDGED: 'tick',
};

export const standingOf = (open: { denied?: true; incident: { state: IncidentState } }): FollowUpStanding =>
  open.denied ? 'denied' : open.incident.state;

/** What a tick saw of an open case: the table's event, the signal raised again (if it was), a person's answer (if one came). */
export interface CaseSeen {
  event: FollowUpEvent;
  fresh: Signal | null;
  answer: ApprovalAnswer | null;
}
