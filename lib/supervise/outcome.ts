import { ExitCode } from '../exit-codes.ts';
import { shellExitCode } from '../io/process/exit-status.ts';
import type { RunSessionPorts } from './ports.ts';
import type { Stall } from './supervisor.ts';
import type { Attempt } from '../core/detect/no-progress.ts';
import { TURN_FAILED } from '../core/revive/revive-opening.ts';
import { runErrorCode, type ErrorCode } from '../core/incident/error-codes.ts';
import type { PendingVerification } from './resumed-verification.ts';

export type Outcome = 'completed' | 'recovered_and_resumed' | 'failed' | 'green-but-dead' | 'stalled' | 'timeout' | 'stopped' | 'spawn-failed' | 'usage-limit' | 'cancel-resume' | 'halted' | 'respawn';

export interface RunResult {
  exitCode: number;
  /** Re-raise this signal on ourselves after cleanup, so the service manager sees a clean stop. */
  reraise: NodeJS.Signals | null;
  outcome: Outcome;
  reason: string;
  /** The stable code of this end (error-codes.ts); null for a completion. Unset: the outcome's own code. */
  errorCode?: ErrorCode | null;
  /** Exit 0 with the adapter's completion and evidence holding: the marker may be cleared. */
  clean: boolean;
  sessionId: string | null;
  /** outcome `usage-limit`: when the limit resets (wall ms; null when the agent did not say), for the in-process wait. */
  usageResetAt?: number | null;
  /** outcome `usage-limit`: a throttle, not the plan's limit (a short bounded backoff, never exit 69). */
  usageThrottle?: boolean;
  /** outcome `cancel-resume`: what the resumed session is told. */
  resumeGuidance?: string;
  /** outcome `respawn`: the old session's last attempts and the files it changed, for the handoff. */
  handoffAttempts?: readonly Attempt[];
  handoffFiles?: readonly string[];
  /** The last lines of output (both streams), for the run's end alert. */
  outputTail?: readonly string[];
  /** The diagnostician's guidance for the fresh session, when it gave some. */
  handoffGuidance?: string;
  /** outcome `cancel-resume` / `respawn`: the incident the next pass must settle (resumed-verification.ts). */
  verifying?: PendingVerification;
}

/**
 * How a run ended, in order of precedence: deadman was stopped by a signal; it stopped a stall
 * or hit --timeout; the child failed; the child exited 0 but its evidence did not hold (green
 * but dead); or it completed. Only the last, with the agent's completion event, is clean.
 */
type Seen = { stopSignal: NodeJS.Signals | null; stall: Stall | null; completed: boolean; sessionId: string | null; usageResetAt?: number | null; usageThrottle?: boolean; turnFailed?: string | null; history?: readonly Attempt[]; filesChanged?: readonly string[]; recovered?: boolean };

/** The outcome, and its stable error code (error-codes.ts). */
export async function conclude(exit: { code: number | null; signal: NodeJS.Signals | null }, seen: Seen, ports: RunSessionPorts, publishStatus: () => void): Promise<RunResult> {
  const result = await outcomeOf(exit, seen, ports, publishStatus);
  const { stall } = seen;
  if ((result.outcome === 'cancel-resume' || result.outcome === 'respawn') && stall) result.verifying = { incident: stall.incident };
  const errorCode = runErrorCode({ outcome: result.outcome, stallKind: seen.stall?.kind, throttle: seen.usageThrottle, turnFailed: !exit.signal && Boolean(seen.turnFailed) });
  return { ...result, errorCode };
}

async function outcomeOf(exit: { code: number | null; signal: NodeJS.Signals | null }, seen: Seen, ports: RunSessionPorts, publishStatus: () => void): Promise<RunResult> {
  const base = { sessionId: seen.sessionId, clean: false, reraise: null };
  const childCode = seen.stall?.kind === 'FINISHED_NOT_EXITED'
    // Stopped by deadman after its final result: its own exit would have carried that verdict.
    ? (seen.completed ? 0 : 1)
    : shellExitCode(exit.code, exit.signal);
  if (seen.stopSignal) {
    return { ...base, exitCode: childCode, reraise: seen.stopSignal, outcome: 'stopped', reason: `stopped by ${seen.stopSignal}` };
  }
  // The old session is closed on purpose (clean: its marker completes), so the next pass starts fresh, not a resume.
  if (seen.stall?.kind === 'SESSION_BUDGET_RISK') {
    return { ...base, clean: true, exitCode: ExitCode.STALLED_RESTART, outcome: 'respawn', reason: seen.stall.message, handoffAttempts: seen.history ?? [], handoffFiles: seen.filesChanged ?? [], ...(seen.stall.guidance ? { handoffGuidance: seen.stall.guidance } : {}) };
  }
  if (seen.stall?.kind === 'HALT_AND_ESCALATE') return { ...base, exitCode: ExitCode.DO_NOT_RESTART, outcome: 'halted', reason: seen.stall.message };
  if (seen.stall?.kind === 'REPEATED_FAILURE') {
    return { ...base, exitCode: ExitCode.STALLED_RESTART, outcome: 'cancel-resume', reason: seen.stall.message, resumeGuidance: seen.stall.guidance ?? seen.stall.message };
  }
  if (seen.stall?.kind === 'USAGE_LIMIT') {
    return { ...base, exitCode: ExitCode.STALLED_RESTART, outcome: 'usage-limit', reason: seen.stall.message, usageResetAt: seen.usageResetAt ?? null, usageThrottle: seen.usageThrottle === true };
  }
  if (seen.stall?.kind === 'TIMEOUT') return { ...base, exitCode: ExitCode.TIMEOUT, outcome: 'timeout', reason: seen.stall.message };
  if (seen.stall && seen.stall.kind !== 'FINISHED_NOT_EXITED') return { ...base, exitCode: ExitCode.STALLED_RESTART, outcome: 'stalled', reason: seen.stall.message };
  if (childCode !== 0) {
    // The agent's own word on its failed turn (an API error) beats the bare exit code: the revive prompt repeats it.
    const reason = exit.signal ? `child killed by ${exit.signal}` : seen.turnFailed ? `${TURN_FAILED}${seen.turnFailed.slice(0, 300)} (exit ${childCode})` : `child exited ${childCode}`;
    return { ...base, exitCode: childCode, outcome: 'failed', reason };
  }
  const failing = await ports.evidence.checkOnExit();
  if (failing) {
    const incident = ports.records.openIncident('EVIDENCE_FAILED', failing, { processes: [], lastLines: [] });
    ports.records.move(incident, 'escalate', 'the command exited 0 but its evidence did not hold');
    ports.logger.log('error', `EVIDENCE_FAILED (green but dead): ${failing}`);
    ports.notifier.send(`STATUS=GREEN BUT DEAD · ${failing}`);
    return { ...base, exitCode: ExitCode.GREEN_BUT_DEAD, outcome: 'green-but-dead', reason: failing };
  }
  publishStatus();
  // The work completed after a recovery the pass before took, and this pass verified it.
  const outcome = seen.completed && seen.recovered ? 'recovered_and_resumed' : 'completed';
  return { ...base, exitCode: 0, clean: seen.completed, outcome, reason: seen.completed ? 'exited 0' : 'exited 0 without the agent\'s completion event' };
}
