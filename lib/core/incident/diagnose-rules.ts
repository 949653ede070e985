import type { RecoveryAction, SignalKind } from './kinds.ts';

/**
 * The deterministic diagnosis: each signal kind has one recommended typed action and the
 * reason for it. An external diagnostician may only narrow this (see diagnosis.ts), and
 * policy still decides.
 */

export interface Diagnosis {
  action: RecoveryAction;
  rationale: string;
  /** An external diagnostician's words for the agent (bounded, redacted): into the resume prompt or the handoff. */
  guidance?: string;
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
    case 'FINISHED_NOT_EXITED':
      return { action: 'END_FINISHED_RUN', rationale: 'the agent printed its final result and then did not exit; its work is over, so stopping it loses nothing' };
    case 'USAGE_LIMIT':
      return { action: 'WAIT_FOR_USAGE_RESET', rationale: 'the plan or usage limit holds until its reset: a restart before then only burns retries' };
    case 'REPEATED_FAILURE':
      return { action: 'CANCEL_AND_RESUME', rationale: 'the agent keeps repeating a failing command without changing anything; interrupting it and resuming with what failed breaks the loop' };
    case 'NO_PROGRESS':
      return { action: 'OBSERVE', rationale: 'the agent is busy but gets nowhere; no single step is wrong, so deadman records it for a person and lets the run go on' };
    case 'SESSION_BUDGET_RISK':
      return { action: 'CHECKPOINT_AND_RESPAWN', rationale: 'the session is over its budget; a fresh session with a handoff carries the task on without the old context\'s cost' };
    case 'EVIDENCE_FAILED':
    case 'HALT_AND_ESCALATE':
    case 'REVIVE_REFUSED':
      return { action: 'REPORT', rationale: 'retrying cannot help without a person looking first' };
  }
}
