import type { PolicyDecision } from '../../core/incident/policy-decision.ts';
import type { RecoveryAction } from '../../core/incident/kinds.ts';
import { ENDS_RUN } from './ending-actions.ts';

/**
 * How a new incident opens, as a table beside the follow-up table (incident-follow-up.ts): what
 * the diagnosis asks for × policy's verdict → one opening action the supervisor carries out.
 * Pure: the supervisor diagnoses and asks policy, this only names what follows.
 */

export type OpeningAsk =
  /** An action that ends the run as the agent said (ENDS_RUN: a usage wait, a finished run, a resume). */
  | 'end_run'
  /** OBSERVE: the agent goes on, a person looks. */
  | 'observe'
  /** STALL_POLICY, or a recovery with no process to act on: the stall policy decides. */
  | 'stall_policy'
  /** A recovery with a hung finding to act on. */
  | 'recover';

export type OpeningAction =
  /** Stop the tree as for a stall; the run concludes as the agent said. */
  | 'end_run'
  /** AWAITING_APPROVAL: the agent goes on, the incident waits for a person. */
  | 'wait_for_person'
  /** ESCALATED without a stall: a denied action leaves the agent alone. */
  | 'escalate'
  /** ESCALATED, and the run stalls (its stall policy decides what follows). */
  | 'stall'
  /** AWAITING_APPROVAL with the finding kept: `deadman approve` acts on it. */
  | 'await_approval'
  /** RECOVERING: act on the finding now. */
  | 'recover';

export const OPENING_TABLE: Record<OpeningAsk, Record<PolicyDecision['verdict'], OpeningAction>> = {
  end_run: { allow: 'end_run', await_approval: 'wait_for_person', deny: 'escalate' },
  observe: { allow: 'wait_for_person', await_approval: 'wait_for_person', deny: 'escalate' },
  stall_policy: { allow: 'stall', await_approval: 'stall', deny: 'escalate' },
  recover: { allow: 'recover', await_approval: 'await_approval', deny: 'escalate' },
};

/** What a diagnosis's action asks for; `hasFinding`: the signal names a subtree a recovery could act on. */
export function openingAsk(action: RecoveryAction, hasFinding: boolean): OpeningAsk {
  if (ENDS_RUN[action]) return 'end_run';
  if (action === 'OBSERVE') return 'observe';
  return action === 'STALL_POLICY' || !hasFinding ? 'stall_policy' : 'recover';
}
