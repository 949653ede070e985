import { ACTIONS, type PolicyDecision, type PolicyInput, type RecoveryAction } from '../signals/actions.ts';

/**
 * Policy checks a diagnosis's recommended action against what this run allows: each action's
 * rule is in its row (lib/core/signals/actions.ts). Only policy's answer is ever acted on.
 */

export type { PolicyDecision, PolicyInput };

/**
 * The actions that change the agent's course: one that did not help is never taken again for
 * the same stall and target. Waiting for a usage reset, ending a finished run or halting
 * repeat nothing that failed (their repeats are bounded by max_wait and the revive budget).
 */
export const NEVER_REUSED: ReadonlySet<RecoveryAction> = new Set(
  (Object.keys(ACTIONS) as RecoveryAction[]).filter((action) => 'neverReused' in ACTIONS[action]),
);

export function decide(input: PolicyInput): PolicyDecision {
  if (input.alreadyTaken && NEVER_REUSED.has(input.recommended)) {
    return {
      verdict: 'deny',
      action: input.recommended,
      reason: `${input.recommended} was already taken for this stall and target in this run and did not end it: an action fingerprint is never reused, so a person must look`,
    };
  }
  const { verdict, reason } = ACTIONS[input.recommended].policy(input);
  return { verdict, action: input.recommended, reason } as PolicyDecision;
}
