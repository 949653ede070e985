import type { RecoveryAction } from './kinds.ts';

/**
 * Policy checks a diagnosis's recommended action against what this run allows. Only policy's
 * answer is ever acted on.
 */

export interface PolicyInput {
  recommended: RecoveryAction;
  autoRecover: boolean;
  /** The agent's session id, when it reported one: a resume needs it. */
  sessionId?: string | null;
  /** This action, on this stall and target, was already taken in this run (its action fingerprint, fingerprint.ts). */
  alreadyTaken?: boolean;
  /** Why the hung target may not be the tool's (tool-ownership.ts): killing it is a person's call. */
  targetUnproven?: string | null;
}

/**
 * The actions that change the agent's course: one that did not help is never taken again for
 * the same stall and target. Waiting for a usage reset, ending a finished run or halting
 * repeat nothing that failed (their repeats are bounded by max_wait and the revive budget).
 */
export const NEVER_REUSED: ReadonlySet<RecoveryAction> = new Set(['TERMINATE_DESCENDANT_PROCESS', 'CANCEL_AND_RESUME', 'CHECKPOINT_AND_RESPAWN']);

export type PolicyDecision =
  | { verdict: 'allow'; action: RecoveryAction; reason: string }
  | { verdict: 'await_approval'; action: RecoveryAction; reason: string }
  /** Never acted on: the incident escalates to a person, the agent is left alone. */
  | { verdict: 'deny'; action: RecoveryAction; reason: string };

export function decide(input: PolicyInput): PolicyDecision {
  if (input.alreadyTaken && NEVER_REUSED.has(input.recommended)) {
    return { verdict: 'deny', action: input.recommended, reason: `${input.recommended} was already taken for this stall and target in this run and did not end it: an action fingerprint is never reused, so a person must look` };
  }
  if (input.recommended === 'HALT_AND_ESCALATE') {
    return { verdict: 'allow', action: input.recommended, reason: 'halting only stops: it needs no approval' };
  }
  if (input.recommended === 'OBSERVE') {
    return { verdict: 'await_approval', action: input.recommended, reason: 'recorded for a person to look at; the run goes on' };
  }
  if (input.recommended === 'REPORT') {
    return { verdict: 'await_approval', action: input.recommended, reason: 'the diagnosis advises leaving it to a person' };
  }
  if (input.recommended === 'END_FINISHED_RUN') {
    return { verdict: 'allow', action: input.recommended, reason: 'the agent already finished: ending the run needs no approval' };
  }
  if (input.recommended === 'WAIT_FOR_USAGE_RESET') {
    return { verdict: 'allow', action: input.recommended, reason: 'the agent cannot work until the reset: waiting needs no approval' };
  }
  if (input.recommended === 'CANCEL_AND_RESUME') {
    if (!input.sessionId) return { verdict: 'await_approval', action: input.recommended, reason: 'the agent reported no session id, so it cannot be resumed: a person must decide' };
    if (!input.autoRecover) return { verdict: 'await_approval', action: input.recommended, reason: 'recovery is off: run with --auto-recover (or auto_recover = true) to let deadman interrupt and resume the agent' };
    return { verdict: 'allow', action: input.recommended, reason: 'auto_recover is on and the session can be resumed' };
  }
  if (input.recommended === 'CHECKPOINT_AND_RESPAWN' && !input.autoRecover) {
    return { verdict: 'await_approval', action: input.recommended, reason: 'recovery is off: run with --auto-recover (or auto_recover = true) to let deadman respawn the agent with a handoff' };
  }
  if (input.recommended === 'TERMINATE_DESCENDANT_PROCESS' && input.targetUnproven) {
    return { verdict: 'await_approval', action: input.recommended, reason: `the target may be a helper the agent started, not the tool (${input.targetUnproven}): deadman does not guess, a person must decide` };
  }
  if (input.recommended === 'TERMINATE_DESCENDANT_PROCESS' && !input.autoRecover) {
    return { verdict: 'await_approval', action: input.recommended, reason: 'recovery is off: run with --auto-recover (or auto_recover = true) to let deadman kill hung descendants' };
  }
  const needed = input.recommended === 'TERMINATE_DESCENDANT_PROCESS' || input.recommended === 'CHECKPOINT_AND_RESPAWN';
  return { verdict: 'allow', action: input.recommended, reason: needed ? 'auto_recover is on' : 'no in-place recovery needs approval' };
}
