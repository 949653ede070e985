/**
 * Diagnosis and policy. Deterministic rules turn a signal into one recommended typed action;
 * policy then checks that recommendation against what this run allows. Only policy's answer
 * is ever acted on.
 */

export type SignalKind = 'OUTPUT_INACTIVITY' | 'HUNG_PROCESS' | 'EVIDENCE_STALE' | 'EVIDENCE_FAILED' | 'TIMEOUT' | 'NOT_READY' | 'HALT_AND_ESCALATE'
  /** A revive marker deadman did not write, or that was changed since, was set aside unread. */
  | 'REVIVE_REFUSED';

export type RecoveryAction =
  /** Kill one proven-owned, hung descendant subtree; the agent carries on. */
  | 'TERMINATE_DESCENDANT_PROCESS'
  /** Nothing deadman can fix in place: apply the stall policy (withhold the watchdog, or exit 75). */
  | 'STALL_POLICY'
  /** Record and report only. */
  | 'REPORT';

export interface Diagnosis {
  action: RecoveryAction;
  rationale: string;
}

export function diagnose(kind: SignalKind): Diagnosis {
  switch (kind) {
    case 'HUNG_PROCESS':
      return { action: 'TERMINATE_DESCENDANT_PROCESS', rationale: 'a descendant made no CPU or I/O progress while the agent waited on it; killing it returns a failed tool result the agent can act on' };
    case 'OUTPUT_INACTIVITY':
    case 'EVIDENCE_STALE':
    case 'NOT_READY':
      return { action: 'STALL_POLICY', rationale: 'the whole run stopped making progress and no single process is to blame; a restart (with revive) is the remedy' };
    case 'TIMEOUT':
      return { action: 'STALL_POLICY', rationale: 'the run exceeded its wall-time cap' };
    case 'EVIDENCE_FAILED':
    case 'HALT_AND_ESCALATE':
    case 'REVIVE_REFUSED':
      return { action: 'REPORT', rationale: 'retrying cannot help without a person looking first' };
  }
}

export interface PolicyInput {
  recommended: RecoveryAction;
  autoRecover: boolean;
}

export type PolicyDecision =
  | { verdict: 'allow'; action: RecoveryAction; reason: string }
  | { verdict: 'await_approval'; action: RecoveryAction; reason: string };

export function decide(input: PolicyInput): PolicyDecision {
  if (input.recommended === 'REPORT') {
    return { verdict: 'await_approval', action: input.recommended, reason: 'the diagnosis advises leaving it to a person' };
  }
  if (input.recommended === 'TERMINATE_DESCENDANT_PROCESS' && !input.autoRecover) {
    return { verdict: 'await_approval', action: input.recommended, reason: 'recovery is off: run with --auto-recover (or auto_recover = true) to let deadman kill hung descendants' };
  }
  return { verdict: 'allow', action: input.recommended, reason: input.recommended === 'TERMINATE_DESCENDANT_PROCESS' ? 'auto_recover is on' : 'no in-place recovery needs approval' };
}
