import type { RecoveryAction, SignalKind } from '../core/incident/kinds.ts';
import type { Incident } from './record-types.ts';
import type { RunRecorder } from './ports.ts';

/**
 * Actions that end this agent process on the agent's own word — it finished, it hit its usage
 * limit, it loops on one failure — carried out by deterministic code: the supervisor enters the
 * stall of `kind` (the run session stops the tree, SIGINT for an interrupt), and the incident
 * resolves once the tree is down — except a resume or a respawn, judged by the session that
 * follows (resumed-verification.ts). What follows (exit with the verdict, wait and resume, resume
 * with guidance) is `conclude`'s and `deadman run`'s.
 */
export type EndingKind = Extract<SignalKind, 'FINISHED_NOT_EXITED' | 'USAGE_LIMIT' | 'REPEATED_FAILURE' | 'HALT_AND_ESCALATE' | 'SESSION_BUDGET_RISK'>;

/** `judgedByNextPass`: the incident stays VERIFYING until the session that follows settles it (resumed-verification.ts). */
export const ENDS_RUN: Partial<Record<RecoveryAction, { kind: EndingKind; doing: string; done: string; halts?: true; judgedByNextPass?: true }>> = {
  END_FINISHED_RUN: { kind: 'FINISHED_NOT_EXITED', doing: 'stopping the finished agent\'s tree', done: 'the finished agent\'s tree is stopped; the run ends with its result\'s verdict' },
  WAIT_FOR_USAGE_RESET: { kind: 'USAGE_LIMIT', doing: 'interrupting the agent to wait for the reset', done: 'the agent is stopped; the run waits for the reset, then resumes the session' },
  HALT_AND_ESCALATE: { kind: 'HALT_AND_ESCALATE', doing: 'stopping the tree: a person must look before it runs again', done: 'the tree is stopped; deadman exits 69 (do not restart)', halts: true },
  CHECKPOINT_AND_RESPAWN: { kind: 'SESSION_BUDGET_RISK', doing: 'interrupting the agent to respawn it with a handoff', done: 'the agent is stopped; a fresh session starts with the task and the handoff', judgedByNextPass: true },
  CANCEL_AND_RESUME: { kind: 'REPEATED_FAILURE', doing: 'interrupting the agent to resume it with guidance', done: 'the agent is interrupted; its session resumes with the guidance', judgedByNextPass: true },
};

/** Records the action taken; returns the stall kind the supervisor enters. */
export function takeEndingAction(records: RunRecorder, action: RecoveryAction, incident: Incident, detail: { message: string; guidance?: string | undefined }): EndingKind {
  const ends = ENDS_RUN[action]!;
  records.move(incident, 'recovery_allowed', 'the agent\'s own word ends this agent process');
  records.action(incident, action, null, 'stopping', detail);
  records.move(incident, 'action_taken', ends.doing);
  return ends.kind;
}

export function verifyEndingAction(records: RunRecorder, incident: Incident, action: RecoveryAction): void {
  const { done, halts, judgedByNextPass } = ENDS_RUN[action]!;
  if (judgedByNextPass) return;
  // A halt is an escalation: the incident stays for a person, it is not resolved.
  if (halts) {
    records.move(incident, 'escalate', done);
    return;
  }
  records.verification(incident, 'RESOLVED', done);
  records.move(incident, 'verified', done);
}
