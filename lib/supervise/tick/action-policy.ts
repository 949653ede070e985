import { decide, type PolicyDecision } from '../../core/incident/policy-decision.ts';
import { actionFingerprint } from '../../core/incident/fingerprint.ts';
import type { RecoveryAction } from '../../core/incident/kinds.ts';
import type { SupervisorPorts } from '../ports.ts';
import type { Incident } from '../records/records.ts';
import type { Signal } from './detectors.ts';

/**
 * Asks policy about a diagnosis's action and records its answer. What it allows is
 * remembered by action fingerprint for the whole run (every pass: `actionsTaken` outlives the
 * supervisor), so the same action on the same stall and target is denied the next time.
 */
export function decideOnAction(
  ports: Pick<SupervisorPorts, 'records'>,
  /** Action fingerprints allowed so far in the run; none when a run keeps none (every action is new). */
  actionsTaken: Set<string> | undefined,
  incident: Incident,
  signal: Pick<Signal, 'kind' | 'message' | 'finding'>,
  run: { action: RecoveryAction; autoRecover: boolean; sessionId: string | null },
): PolicyDecision {
  const target = signal.finding?.target;
  const fingerprint = actionFingerprint({
    action: run.action,
    kind: signal.kind,
    message: signal.message,
    target,
    process: target,
    sessionId: run.sessionId,
  });
  const decision = decide({
    recommended: run.action,
    autoRecover: run.autoRecover,
    sessionId: run.sessionId,
    alreadyTaken: actionsTaken?.has(fingerprint) ?? false,
    targetUnproven: signal.finding?.unproven ?? null,
  });
  ports.records.decision(incident, decision);
  if (decision.verdict === 'allow') actionsTaken?.add(fingerprint);
  return decision;
}
