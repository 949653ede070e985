import { verifyResumed, type ResumedEvidence } from '../../core/incident/verify.ts';
import type { Attempt } from '../../core/detect/no-progress.ts';
import type { Incident } from '../record-types.ts';
import type { ResumedCheck, RunRecorder } from '../ports.ts';
import type { Logger, WorkspaceAnswer } from '../ports.ts';

/** The edges it needs (the supervisor's own ports hold one of these, so not those ports' type). */
interface VerificationPorts {
  records: Pick<RunRecorder, 'move' | 'verification'>;
  logger: Logger;
  workspace?: (() => WorkspaceAnswer) | undefined;
}

/**
 * The verification of a recovery that ended the pass before (CANCEL_AND_RESUME,
 * CHECKPOINT_AND_RESPAWN): its incident stays VERIFYING across the pass boundary, and this
 * pass — the resumed or respawned session — settles it (verifyResumed): RESOLVED once the
 * session shows it moved on, ESCALATED when it raises the same signal again or ends without
 * moving on. The run's outcome is then `recovered_and_resumed` if the work completed.
 */

/** What the pass that took the action hands to the next one: its incident, VERIFYING (one object across the passes of one run). */
export interface PendingVerification {
  incident: Incident;
}

export class ResumedVerification implements ResumedCheck {
  verdict: 'RESOLVED' | 'ESCALATED' | null = null;
  private readonly incident: Incident;
  private readonly evidence: ResumedEvidence = {
    sameSignalAgain: false,
    turnCompleted: false,
    toolSucceeded: false,
    workspaceChanged: false,
    ended: null,
  };
  private readonly workspaceAtStart: WorkspaceAnswer;

  constructor(
    pending: PendingVerification,
    private readonly ports: VerificationPorts,
  ) {
    this.incident = pending.incident;
    this.workspaceAtStart = ports.workspace?.() ?? null;
  }

  /** One tick's news: the attempts just taken, whether a turn completed, the kinds of this pass's incidents (the recovered one again: it did not help). */
  async tick(attempts: readonly Attempt[], turnCompleted: boolean, openKinds: readonly string[]): Promise<void> {
    if (this.verdict) return;
    this.evidence.sameSignalAgain ||= openKinds.includes(this.incident.kind);
    this.evidence.turnCompleted ||= turnCompleted;
    this.evidence.toolSucceeded ||= attempts.some((a) => a.ok && !a.turn);
    if ((attempts.length > 0 || turnCompleted) && !this.evidence.workspaceChanged)
      this.evidence.workspaceChanged = await this.workspaceMoved();
    if (this.verdict) return;
    this.judge();
  }

  ended(code: number | null, turnCompleted: boolean, openKinds: readonly string[]): void {
    if (this.verdict) return;
    this.evidence.sameSignalAgain ||= openKinds.includes(this.incident.kind);
    this.evidence.turnCompleted ||= turnCompleted;
    this.evidence.ended = { code };
    this.judge();
  }

  private async workspaceMoved(): Promise<boolean> {
    const [then, now] = await Promise.all([this.workspaceAtStart, this.ports.workspace?.() ?? null]);
    return now !== null && then !== null && now !== then;
  }

  private judge(): void {
    const verdict = verifyResumed(this.evidence);
    if (verdict.verdict === 'PENDING') return;
    const { records, logger } = this.ports;
    records.verification(this.incident, verdict.verdict, verdict.detail);
    records.move(this.incident, verdict.verdict === 'RESOLVED' ? 'verified' : 'escalate', verdict.detail);
    this.verdict = this.incident.state === 'RESOLVED' ? 'RESOLVED' : 'ESCALATED';
    logger.log(
      this.verdict === 'RESOLVED' ? 'notice' : 'warn',
      `incident ${this.incident.id} ${this.incident.state}: ${verdict.detail}`,
    );
  }
}
