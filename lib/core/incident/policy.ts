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
}

export type PolicyDecision =
  | { verdict: 'allow'; action: RecoveryAction; reason: string }
  | { verdict: 'await_approval'; action: RecoveryAction; reason: string };

export function decide(input: PolicyInput): PolicyDecision {
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
  if (input.recommended === 'TERMINATE_DESCENDANT_PROCESS' && !input.autoRecover) {
    return { verdict: 'await_approval', action: input.recommended, reason: 'recovery is off: run with --auto-recover (or auto_recover = true) to let deadman kill hung descendants' };
  }
  const needed = input.recommended === 'TERMINATE_DESCENDANT_PROCESS' || input.recommended === 'CHECKPOINT_AND_RESPAWN';
  return { verdict: 'allow', action: input.recommended, reason: needed ? 'auto_recover is on' : 'no in-place recovery needs approval' };
}
