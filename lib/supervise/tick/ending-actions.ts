import type { RecoveryAction, SignalKind } from '../../core/incident/kinds.ts';
import { ACTIONS, type Ending } from '../../core/signals/actions.ts';
import { stallKindOf } from '../../core/signals/registry.ts';
import type { Incident } from '../record-types.ts';
import type { RunRecorder } from '../ports.ts';

/**
 * Actions that end this agent process on the agent's own word — it finished, it hit its usage
 * limit, it loops on one failure — carried out by deterministic code: the supervisor enters the
 * stall of the kind whose row the action ends (its `endedBy`; the supervised pass stops the tree,
 * SIGINT for an interrupt), and the incident resolves once the tree is down — except a resume
 * or a respawn, judged by the session that follows (resumed-verification.ts). What follows (exit
 * with the verdict, wait and resume, resume with guidance) is `conclude`'s and `deadman run`'s.
 */

/** Each ending action (its row's `ends`, lib/core/signals/actions.ts) with the kind whose stall it enters. */
export const ENDS_RUN: Partial<Record<RecoveryAction, Ending & { kind: SignalKind }>> = Object.fromEntries(
  (Object.keys(ACTIONS) as RecoveryAction[]).flatMap((action) => {
    const ends = 'ends' in ACTIONS[action] ? ACTIONS[action].ends : undefined;
    const kind = stallKindOf(action);
    return ends && kind ? [[action, { ...ends, kind }]] : [];
  }),
);

/** Records the action taken; returns the stall kind the supervisor enters. */
export function takeEndingAction(
  records: RunRecorder,
  action: RecoveryAction,
  incident: Incident,
  detail: { message: string; guidance?: string | undefined },
): SignalKind {
  const ends = ENDS_RUN[action]!;
  records.move(incident, 'recovery_allowed', "the agent's own word ends this agent process");
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
