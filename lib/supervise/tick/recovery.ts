import { verifyRecovery } from '../../core/incident/verify.ts';
import type { IncidentState } from '../../core/incident/incident.ts';
import { processKey, type Observation } from '../../core/process/process-info.ts';
import type { HungFinding } from '../../core/detect/hung.ts';
import type { Incident } from '../records/records.ts';
import type { SupervisorPorts } from '../ports.ts';

/**
 * The TERMINATE_DESCENDANT_PROCESS action and its verification: kill the hung subtree, then
 * judge within the verify window whether the work moved again. Each step is one incident
 * transition, recorded with its evidence.
 */

export interface RecoveryCase {
  incident: Incident;
  finding: HungFinding;
  /** Monotonic ms of the last action's first signal; null until one went out. */
  actedAt: number | null;
}

/** Kills the case's subtree; returns the refusal when the kill was refused (the incident is then ESCALATED). */
export async function terminateHung(current: RecoveryCase, ports: SupervisorPorts): Promise<string | null> {
  const { incident, finding } = current;
  incident.attempts += 1;
  // Output from the moment the first signal goes out counts as the work moving again.
  const actedAt = ports.monotonic();
  const result = await ports.tree.terminate(finding);
  const outcome = result.refused ? 'refused' : result.survived.length ? 'partial' : 'killed';
  ports.records.action(incident, 'TERMINATE_DESCENDANT_PROCESS', finding.target, outcome, result);
  if (result.refused) {
    ports.records.move(incident, 'action_refused', result.refused);
    return result.refused;
  }
  ports.logger.log(
    'notice',
    `TERMINATE_DESCENDANT_PROCESS pid ${finding.target.pid}: killed [${result.killed.join(' ')}]${result.survived.length ? ` survived [${result.survived.join(' ')}]` : ''}`,
  );
  current.actedAt = actedAt;
  ports.records.move(incident, 'action_taken', `killed ${result.killed.length} process(es)`, result);
  return null;
}

export interface VerifyContext {
  now: number;
  windowMs: number;
  lastOutputAt: number;
  /** The latest poll, to see whether the target is gone; null once the root exited (the target counts as gone). */
  observation: Observation | null;
  rootExit: { code: number | null; completed: boolean } | null;
}

/** Judges a recovery in progress; returns the incident's state afterwards (VERIFYING while the window is open). */
export function verifyCase(
  current: RecoveryCase,
  context: VerifyContext,
  ports: Pick<SupervisorPorts, 'records' | 'logger'>,
): IncidentState {
  if (current.incident.state !== 'VERIFYING' || current.actedAt === null) return current.incident.state;
  const target = processKey(current.finding.target);
  const targetGone =
    context.observation === null || !context.observation.processes.some((p) => processKey(p) === target);
  const verdict = verifyRecovery({
    actedAt: current.actedAt,
    now: context.now,
    windowMs: context.windowMs,
    targetGone,
    lastOutputAt: context.lastOutputAt,
    rootExit: context.rootExit,
  });
  if (verdict.verdict === 'PENDING') return current.incident.state;
  ports.records.verification(current.incident, verdict.verdict, verdict.detail);
  ports.records.move(current.incident, verdict.verdict === 'RESOLVED' ? 'verified' : 'not_verified', verdict.detail);
  ports.logger.log(
    verdict.verdict === 'RESOLVED' ? 'notice' : 'warn',
    `incident ${current.incident.id} ${current.incident.state}: ${verdict.detail}`,
  );
  return current.incident.state;
}

/** An open incident whose action is a recovery (it has a hung finding to act on). */
export function isRecovery<T extends Partial<RecoveryCase>>(open: T): open is T & RecoveryCase {
  return open.finding !== undefined;
}
